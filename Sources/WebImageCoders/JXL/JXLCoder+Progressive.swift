import CJXL
import Foundation

extension JXLCoder: ProgressiveImageDecoding {
    /// A decoder that shows a JPEG XL image while it downloads: libjxl's partial render of the
    /// current frame (`JxlDecoderFlushImage`: coarse first, then sharper), or the frames of an animation decoded so far.
    public func makeProgressiveDecoder(options: ImageDecodingOptions) -> any ProgressiveDecoder {
        JXLProgressiveDecoder(options: options, threads: configuration.maximumThreads)
    }
}

/// Feeds one libjxl decoder the bytes that arrived since the last call, keeping what libjxl did not consume.
final class JXLProgressiveDecoder: ProgressiveDecoder {
    private let options: ImageDecodingOptions
    private let threads: Int
    private var session: JXLDecodingSession?
    /// How many leading bytes libjxl has consumed.
    private var consumed = 0
    private var finalImage: Image?

    /// Whether the last ``decode(_:)`` saw the last frame.
    var isComplete: Bool { finalImage != nil }

    init(options: ImageDecodingOptions, threads: Int) {
        self.options = options
        self.threads = threads
    }

    func decode(_ dataSoFar: Data) throws -> Image? {
        if let finalImage { return finalImage }
        guard ImageFormat(detecting: dataSoFar) == .jpegXL, dataSoFar.count > consumed else { return nil }
        let session = try self.session ?? JXLDecodingSession(options: options, threads: threads)
        self.session = session
        // libjxl reads the input in place until JxlDecoderReleaseInput: give it a copy of the new bytes.
        let pending = [UInt8](dataSoFar[(dataSoFar.startIndex + consumed)...])
        let outcome = try pending.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return JXLDecodingSession.Outcome.needsMoreInput }
            try session.check(session.lib.JxlDecoderSetInput(session.decoder, base, buffer.count), "setting the input")
            defer { consumed += buffer.count - session.lib.JxlDecoderReleaseInput(session.decoder) }
            return try session.run()
        }
        if outcome == .finished {
            let image = ColorManagement.finish(
                options.makeImage(frames: session.frames, format: .jpegXL, orientation: session.orientation,
                                  loopCount: session.loopCount, data: dataSoFar),
                profile: session.iccProfile, sourceIsGray: session.isGray, options: options)
            finalImage = image
            self.session = nil
            return image
        }
        if !session.frames.isEmpty { // an animation: the frames so far
            return options.makeImage(frames: session.frames, format: .jpegXL, orientation: session.orientation,
                                     loopCount: session.loopCount, data: dataSoFar)
        }
        guard let partial = session.partialFrame() else { return nil }
        return options.makeImage(frames: [ImageFrame(pixels: partial)], format: .jpegXL,
                                 orientation: session.orientation, data: dataSoFar)
    }
}
