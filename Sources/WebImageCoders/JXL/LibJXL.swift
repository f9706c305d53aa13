import CJXL
import Foundation

/// The only code that calls libjxl 0.7 in one shot. libjxl reports failures as status codes (it
/// never longjmps), so it is driven from Swift directly; every object it allocates is released by a `defer`.
enum LibJXL {
    /// What a decode produced, before `ImageDecodingOptions.makeImage(frames:format:orientation:loopCount:data:)`.
    struct Decoded {
        var frames: [ImageFrame]
        var orientation: ImageOrientation
        var loopCount: Int
        /// The ICC profile of the samples when they are not plain sRGB, and whether they are grey.
        var iccProfile: Data?
        var isGray: Bool
        /// What a lenient decode let pass; empty for a whole file.
        var issues: [DecodingIssue] = []
    }

    // MARK: Decoding

    /// Decodes the whole of `bytes`; data that ends before the last frame does is `.truncatedData`.
    ///
    /// Unless `options.strict`, damage is let pass (issue 31): an animation cut or broken after some frames keeps
    /// them, and a still image cut short shows what libjxl can flush of it (`JxlDecoderFlushImage`: once enough
    /// groups have arrived, the whole image at the detail received, so no row is named); the issues say so.
    /// Nothing to flush (a small image, or a cut before its first groups) or a broken first frame still throws.
    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions, threads: Int) throws -> Decoded {
        let session = try JXLDecodingSession(options: options, threads: threads)
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw ImageCodingError(.truncatedData, format: .jpegXL, "no data")
        }
        // The input stays open: running out of it is then JXL_DEC_NEED_MORE_INPUT, which means a cut file.
        try session.check(session.lib.JxlDecoderSetInput(session.decoder, base, bytes.count), "setting the input")
        var frames: [ImageFrame] = []
        var issues: [DecodingIssue] = []
        do {
            switch try session.run() {
            case .finished:
                frames = session.frames
            case .needsMoreInput:
                let cut = ImageCodingError(.truncatedData, format: .jpegXL, "the data ends before the image does (\(bytes.count) bytes)")
                guard !options.strict else { throw cut }
                if !session.frames.isEmpty {
                    frames = session.frames
                    issues.append(DecodingIssue(.framesDropped, detail: "\(cut.message): the frames after frame \(frames.count) were dropped"))
                } else if let partial = session.partialFrame(), partial.bytes.contains(where: { $0 != 0 }) {
                    frames = [ImageFrame(pixels: partial)]
                    issues.append(DecodingIssue(.truncated, detail: "\(cut.message); libjxl shows the image at the detail received"))
                } else {
                    throw cut
                }
            }
        } catch let error as ImageCodingError where !options.strict && error.code == .corruptData && !session.frames.isEmpty {
            frames = session.frames
            issues.append(DecodingIssue(.framesDropped, detail: "\(error.message): the frames after frame \(frames.count) were dropped"))
        }
        guard !frames.isEmpty else {
            throw ImageCodingError(.truncatedData, format: .jpegXL, "the codestream holds no complete frame")
        }
        if frames.count == 1 { frames[0].duration = .zero } // what is left of an animation plays as a still image
        return Decoded(frames: frames, orientation: session.orientation, loopCount: frames.count == 1 ? 0 : session.loopCount,
                       iccProfile: session.iccProfile, isGray: session.isGray, issues: issues)
    }

    // MARK: Encoding

    /// Encodes `frames` (one: a still image; more: an animation with millisecond durations).
    static func encode(
        frames: [ImageFrame], orientation: ImageOrientation, loopCount: Int, distance: Float, lossless: Bool, effort: Int,
        configuration: JXLCoder.Configuration
    ) throws -> Data {
        let lib = try CodecLibraries.jxl.get()
        guard let encoder = lib.JxlEncoderCreate(nil) else {
            throw ImageCodingError(.encodingFailed, format: .jpegXL, "libjxl could not create an encoder")
        }
        defer { lib.JxlEncoderDestroy(encoder) }
        let runner = lib.JxlThreadParallelRunnerCreate(nil, configuration.maximumThreads)
        defer { if let runner { lib.JxlThreadParallelRunnerDestroy(runner) } }
        if let runner {
            try check(lib.JxlEncoderSetParallelRunner(encoder, lib.JxlThreadParallelRunner, runner), "setting the threads")
        }

        let first = frames[0].pixels
        let hasAlpha = frames.contains { $0.pixels.hasAlpha }
        var info = JxlBasicInfo()
        lib.JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(first.width)
        info.ysize = UInt32(first.height)
        info.bits_per_sample = 8
        info.exponent_bits_per_sample = 0
        info.num_color_channels = 3
        info.alpha_bits = hasAlpha ? 8 : 0
        info.num_extra_channels = hasAlpha ? 1 : 0
        info.uses_original_profile = lossless ? JXL_TRUE : JXL_FALSE
        info.orientation = JxlOrientation(UInt32(orientation.exifValue))
        if frames.count > 1 {
            info.have_animation = JXL_TRUE
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: max(0, loopCount))
        }
        try check(lib.JxlEncoderSetBasicInfo(encoder, &info), "setting the basic info")
        var colour = JxlColorEncoding()
        lib.JxlColorEncodingSetToSRGB(&colour, JXL_FALSE)
        try check(lib.JxlEncoderSetColorEncoding(encoder, &colour), "setting sRGB")

        guard let settings = lib.JxlEncoderFrameSettingsCreate(encoder, nil) else {
            throw ImageCodingError(.encodingFailed, format: .jpegXL, "libjxl could not create frame settings")
        }
        try check(lib.JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(min(max(effort, 1), 9))), "setting the effort")
        if lossless {
            try check(lib.JxlEncoderSetFrameLossless(settings, JXL_TRUE), "asking for lossless")
        } else {
            try check(lib.JxlEncoderSetFrameDistance(settings, distance), "setting the distance")
        }

        let channels = hasAlpha ? 4 : 3
        var format = JxlPixelFormat(num_channels: UInt32(channels), data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        for frame in frames {
            guard frame.pixels.size == first.size else {
                throw ImageCodingError(.encodingFailed, format: .jpegXL, "frames of different sizes")
            }
            if frames.count > 1 {
                var header = JxlFrameHeader()
                lib.JxlEncoderInitFrameHeader(&header)
                header.duration = UInt32(min(max(0, (frame.duration / .milliseconds(1)).rounded()), Double(UInt32.max)))
                try check(lib.JxlEncoderSetFrameHeader(settings, &header), "setting a frame's duration")
            }
            let samples = hasAlpha ? frame.pixels.bytes : rgb(of: frame.pixels)
            try samples.withUnsafeBytes { raw in
                try check(lib.JxlEncoderAddImageFrame(settings, &format, raw.baseAddress, raw.count), "adding a frame")
            }
        }
        lib.JxlEncoderCloseInput(encoder)
        return try output(of: encoder)
    }

    /// The RGB samples of an opaque buffer (libjxl wants as many channels as the basic info declares).
    private static func rgb(of pixels: PixelBuffer) -> [UInt8] {
        var samples = [UInt8]()
        samples.reserveCapacity(pixels.width * pixels.height * 3)
        for (index, byte) in pixels.bytes.enumerated() where index & 3 != 3 { samples.append(byte) }
        return samples
    }

    /// Drains the encoder's output, growing the buffer as libjxl asks.
    private static func output(of encoder: OpaquePointer) throws -> Data {
        let lib = try CodecLibraries.jxl.get()
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        var written = 0
        while true {
            let (status, used) = output.withUnsafeMutableBufferPointer { buffer -> (JxlEncoderStatus, Int) in
                guard let base = buffer.baseAddress else { return (JXL_ENC_ERROR, 0) }
                var next: UnsafeMutablePointer<UInt8>? = base + written
                var available = buffer.count - written
                let status = lib.JxlEncoderProcessOutput(encoder, &next, &available)
                return (status, buffer.count - written - available)
            }
            written += used
            switch status {
            case JXL_ENC_SUCCESS:
                return Data(output.prefix(written))
            case JXL_ENC_NEED_MORE_OUTPUT:
                output.append(contentsOf: repeatElement(0, count: output.count))
            default:
                throw ImageCodingError(.encodingFailed, format: .jpegXL, "libjxl failed while writing (status \(status.rawValue))")
            }
        }
    }

    private static func check(_ status: JxlEncoderStatus, _ step: String) throws {
        guard status != JXL_ENC_SUCCESS else { return }
        throw ImageCodingError(.encodingFailed, format: .jpegXL, "libjxl failed \(step) (status \(status.rawValue))")
    }
}
