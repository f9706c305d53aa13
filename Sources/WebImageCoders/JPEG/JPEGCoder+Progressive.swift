import Foundation

extension JPEGCoder: ProgressiveImageDecoding {
    /// A fresh incremental decoder for one download (see `ProgressiveDecoder`).
    ///
    /// A baseline JPEG grows from the top (the rows not yet received are transparent); a progressive
    /// JPEG is shown full size as soon as its first scan has arrived and sharpens with each later
    /// scan. Thumbnail, scale and orientation options apply to every partial image.
    public func makeProgressiveDecoder(options: ImageDecodingOptions) -> any ProgressiveDecoder {
        JPEGProgressiveDecoder(options: options)
    }
}

/// Decodes one JPEG from a growing prefix of its bytes with libjpeg's buffered-image mode.
///
/// Cost: truly incremental. The C state keeps libjpeg's stream position and coefficient buffer
/// between calls, so every byte is parsed and entropy-decoded once in total. Rendering costs one
/// pass over the newly available rows of the first scan per call, plus one full inverse-DCT pass each
/// time a later scan completes (only for the newest scan when one call completes several). Every
/// changed image is copied once out of the C canvas; a call that adds no bytes, or whose bytes
/// change no pixel, returns the previous image without any work. The working memory is the whole
/// coefficient buffer (about 3 bytes per pixel at 4:2:0, 6 at 4:4:4, also for baseline files) plus
/// the RGBA canvas, capped like one-shot decoding by `ImageDecodingOptions.maximumPixelCount`.
/// Once the end marker arrives, the final image is a one-shot ``JPEGCoder/decode(_:options:)`` of
/// the whole data (a second decode of it, which makes it exactly equal) and the C state is freed.
///
/// The data must grow by appending (each call's bytes start with the previous call's); a shorter
/// `dataSoFar` than last time starts over from scratch.
final class JPEGProgressiveDecoder: ProgressiveDecoder {
    private let options: ImageDecodingOptions
    private var state: LibJPEG.Incremental?
    /// The header and what follows from it, once it has arrived.
    private var header: (info: JPEGCoder.Info, scale: JPEGCoder.DCTScale, orientation: ImageOrientation)?
    private var lastByteCount = 0
    private var lastImage: Image?
    private var failure: (any Error)?

    private(set) var isComplete = false

    init(options: ImageDecodingOptions) {
        self.options = options
    }

    func decode(_ dataSoFar: Data) throws -> Image? {
        if let failure { throw failure }
        if dataSoFar.count == lastByteCount { return lastImage }
        if dataSoFar.count < lastByteCount { reset() }
        lastByteCount = dataSoFar.count
        do {
            lastImage = try decodeMore(dataSoFar)
            return lastImage
        } catch {
            failure = error
            state = nil
            throw error
        }
    }

    private func reset() {
        state = nil
        header = nil
        lastImage = nil
        isComplete = false
    }

    private func decodeMore(_ data: Data) throws -> Image? {
        if isComplete { return try JPEGCoder().decode(data, options: options) }
        let state = try self.state ?? LibJPEG.Incremental(maximumWorkingMemory: JPEGCoder.workingMemoryLimit(options: options))
        self.state = state
        let progress = try data.withUnsafeBytes { bytes throws(ImageCodingError) -> LibJPEG.Incremental.Progress in
            if header == nil {
                guard let info = try state.header(of: bytes) else { return .needMoreData }
                // The same DCT scale as a one-shot decode with these options.
                let scale = options.targetSize(for: info.size).map { JPEGCoder.DCTScale.largest(for: info.size, covering: $0) } ?? .full
                let output = scale.scaledSize(of: info.size)
                try ImageCodingError.checkDimensions(.jpeg, width: output.width, height: output.height, limit: options.maximumPixelCount)
                // EXIF sits before the first scan, so it has fully arrived with the header.
                header = (info, scale, ExifOrientationReader.orientation(inJPEG: bytes) ?? .up)
            }
            guard let header else { return .needMoreData }
            return try state.decode(bytes, scale: header.scale)
        }
        switch progress {
        case .needMoreData:
            return nil
        case .complete:
            isComplete = true
            self.state = nil
            return try JPEGCoder().decode(data, options: options)
        case .partial(pixels: nil, _):
            return lastImage
        case .partial(let pixels?, _):
            guard let header else { return nil }
            return options.makeImage(
                frames: [ImageFrame(pixels: pixels)], format: .jpeg, orientation: header.orientation,
                data: data, sourceSize: header.info.size
            )
        }
    }
}
