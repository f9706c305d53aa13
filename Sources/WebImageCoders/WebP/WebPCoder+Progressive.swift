import Foundation
public import WebImageCore

extension WebPCoder: ProgressiveImageDecoding {
    /// A decoder that shows a still WebP row by row as its bytes arrive; see `WebPProgressiveDecoder`.
    public func makeProgressiveDecoder(options: ImageDecodingOptions) -> any ProgressiveDecoder {
        WebPProgressiveDecoder(options: options)
    }
}

/// Decodes one WebP download progressively with libwebp's incremental decoder.
///
/// - **Still images** (lossy, lossy with alpha, lossless): once the header is readable (and within
///   `ImageDecodingOptions.maximumPixelCount`), a `WebPIDecoder` is created and kept; each call gives
///   libwebp only the bytes that arrived since the previous one, and decoding resumes where it stopped
///   (no work is redone). A partial image is full size, its decoded rows at the top and transparent rows
///   below. Thumbnail and scale-down sizes are applied by libwebp while decoding, to partial images too,
///   exactly as the one-shot decode does. Each partial image costs one copy of the pixels, made only when
///   new rows were decoded (otherwise the previous image is returned again).
/// - **When the whole file has arrived** (as long as its RIFF header says), the final image is built from
///   the incremental decoder's own buffer, without a copy or a second decode, and equals
///   ``WebPCoder/decode(_:options:)``. The `EXIF` orientation is read then: the chunk follows the image
///   data, so partial images are `.up`. If libwebp has not finished by then, the one-shot decode runs
///   and reports the problem.
/// - **Animations**: libwebp cannot decode them incrementally, so this returns `nil` until the whole file
///   has arrived, then the one-shot decode.
/// - Corrupt bytes throw `ImageCodingError` (`.corruptData`) as soon as libwebp sees them.
final class WebPProgressiveDecoder: ProgressiveDecoder {
    private enum Stage {
        /// Waiting for the RIFF header and the bitstream features.
        case header
        /// A still image under incremental decoding.
        case still(WebPIncrementalDecoder, WebPFeatures, sourceSize: PixelSize)
        /// An animation: waiting for the whole file.
        case animation
        /// The final image.
        case finished(Image)
    }

    private(set) var isComplete = false
    private let options: ImageDecodingOptions
    private var stage = Stage.header
    private var container: WebPContainer?
    /// The last partial image and how many rows it had, returned again while no new rows arrive.
    private var lastPartial: (rows: Int, image: Image)?

    init(options: ImageDecodingOptions) {
        self.options = options
    }

    func decode(_ dataSoFar: Data) throws -> Image? {
        if case .finished(let image) = stage { return image }
        guard let container = try readContainer(dataSoFar) else { return nil }
        let whole = dataSoFar.count >= container.fileSize
        if case .header = stage {
            guard let features = try Self.features(dataSoFar) else {
                return whole ? try finish(oneShot(dataSoFar)) : nil
            }
            try ImageCodingError.checkDimensions(.webp, width: features.width, height: features.height, limit: options.maximumPixelCount)
            if features.hasAnimation {
                stage = .animation
            } else {
                let sourceSize = PixelSize(width: features.width, height: features.height)
                let target = options.targetSize(for: sourceSize)
                if let target {
                    try ImageCodingError.checkDimensions(.webp, width: target.width, height: target.height, limit: options.maximumPixelCount)
                }
                stage = .still(try WebPIncrementalDecoder(features: features, scaledTo: target), features, sourceSize: sourceSize)
            }
        }
        switch stage {
        case .header, .finished:
            return nil // not reached: handled above
        case .animation:
            return whole ? try finish(oneShot(dataSoFar)) : nil
        case .still(let decoder, let features, let sourceSize):
            try decoder.append(dataSoFar.prefix(container.fileSize))
            if whole {
                guard let pixels = decoder.finishedPixels(features: features) else {
                    return try finish(oneShot(dataSoFar)) // libwebp still waits: the one-shot decode says why
                }
                let orientation = container.hasEXIF ? dataSoFar.withUnsafeBytes { WebPStillCodec.exifOrientation($0) } ?? .up : .up
                return finish(options.makeImage(
                    frames: [ImageFrame(pixels: pixels)], format: .webp, orientation: orientation, data: dataSoFar, sourceSize: sourceSize
                ))
            }
            let rows = decoder.decodedRows
            guard rows > 0 else { return nil }
            if let lastPartial, lastPartial.rows == rows { return lastPartial.image }
            let pixels = decoder.finishedPixels(features: features) ?? decoder.partialPixels()
            let image = options.makeImage(frames: [ImageFrame(pixels: pixels)], format: .webp, data: dataSoFar, sourceSize: sourceSize)
            lastPartial = (rows, image)
            return image
        }
    }

    /// The RIFF header, read once; `nil` while it is incomplete. Checks a `VP8X` canvas against the pixel limit.
    private func readContainer(_ data: Data) throws(ImageCodingError) -> WebPContainer? {
        if let container { return container }
        guard let parsed = try WebPContainer(prefix: data) else { return nil }
        if let canvas = parsed.canvasSize {
            try ImageCodingError.checkDimensions(.webp, width: canvas.width, height: canvas.height, limit: options.maximumPixelCount)
        }
        container = parsed
        return parsed
    }

    /// The bitstream features, or `nil` while the bytes so far are too few for `WebPGetFeatures`.
    private static func features(_ data: Data) throws -> WebPFeatures? {
        let result = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Result<WebPFeatures, ImageCodingError> in
            do throws(ImageCodingError) {
                return .success(try WebPStillCodec.features(bytes))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let features): return features
        case .failure(let error) where error.code == .truncatedData: return nil
        case .failure(let error): throw error
        }
    }

    /// The whole file decoded at once, strictly: progressive decoding refuses damage as it always has (issue 31
    /// leaves download-time decoding unchanged).
    private func oneShot(_ data: Data) throws -> Image {
        var strict = options
        strict.strict = true
        return try WebPCoder().decode(data, options: strict)
    }

    private func finish(_ image: Image) -> Image {
        stage = .finished(image)
        lastPartial = nil
        isComplete = true
        return image
    }
}
