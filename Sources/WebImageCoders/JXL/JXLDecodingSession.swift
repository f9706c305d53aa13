import CJXL
import Foundation

/// One libjxl decoder and what it has produced so far: the one-shot decode feeds it the whole file,
/// the progressive decoder feeds it the bytes as they arrive. The input is never closed, so a
/// `JXL_DEC_NEED_MORE_INPUT` always means "the data ends early"; decoding stops at the frame libjxl
/// marks as the last one (or at the first, when only that one is wanted).
final class JXLDecodingSession {
    /// How a call to ``run()`` ended.
    enum Outcome {
        /// Every wanted frame is decoded.
        case finished
        /// libjxl needs bytes that have not arrived (yet).
        case needsMoreInput
    }

    /// libjxl's functions (``CodecLibraries/jxl``).
    let lib: wik_jxl_functions
    let decoder: OpaquePointer
    private let runner: UnsafeMutableRawPointer?
    private let options: ImageDecodingOptions
    private var info: JxlBasicInfo?
    private var output: UnsafeMutableRawBufferPointer?
    private var frameDuration: Duration = .zero
    private var frameIsLast = false
    private var outputIsSet = false
    /// The frames decoded so far, each with its duration (zero for a still image).
    private(set) var frames: [ImageFrame] = []
    /// The stored orientation, from the basic info.
    private(set) var orientation: ImageOrientation = .up
    /// The animation's loop count (0: forever).
    private(set) var loopCount = 0
    /// Whether ``run()`` has returned ``Outcome/finished``.
    private(set) var isFinished = false
    /// The ICC profile of the decoded samples when they are not plain sRGB.
    private(set) var iccProfile: Data?
    /// Whether the samples are grey (expanded to RGB).
    private(set) var isGray = false

    /// Creates a decoder that keeps the stored orientation and un-premultiplies alpha.
    init(options: ImageDecodingOptions, threads: Int) throws {
        let lib = try CodecLibraries.jxl.get()
        self.lib = lib
        guard let decoder = lib.JxlDecoderCreate(nil) else {
            throw ImageCodingError(.corruptData, format: .jpegXL, "libjxl could not create a decoder")
        }
        self.decoder = decoder
        self.options = options
        runner = threads > 1 ? lib.JxlThreadParallelRunnerCreate(nil, threads) : nil
        // Colour: the colour encoding event hands over the profile of the decoded samples (converted by the coder).
        let events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue | JXL_DEC_FULL_IMAGE.rawValue
        try check(lib.JxlDecoderSubscribeEvents(decoder, Int32(events)), "subscribing to events")
        try check(lib.JxlDecoderSetKeepOrientation(decoder, JXL_TRUE), "keeping the orientation")
        try check(lib.JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE), "un-premultiplying alpha")
        if let runner {
            try check(lib.JxlDecoderSetParallelRunner(decoder, lib.JxlThreadParallelRunner, runner), "setting the threads")
        }
    }

    deinit {
        lib.JxlDecoderDestroy(decoder)
        if let runner { lib.JxlThreadParallelRunnerDestroy(runner) }
        output?.deallocate()
    }

    /// Processes the input set on ``decoder`` until every wanted frame is out or the input runs dry.
    func run() throws -> Outcome {
        while !isFinished {
            let status = lib.JxlDecoderProcessInput(decoder)
            switch status {
            case JXL_DEC_BASIC_INFO:
                try readBasicInfo()
            case JXL_DEC_COLOR_ENCODING:
                readColorProfile()
            case JXL_DEC_FRAME:
                try readFrameHeader()
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                try setOutputBuffer()
            case JXL_DEC_FULL_IMAGE:
                try finishFrame()
            case JXL_DEC_SUCCESS:
                finish()
            case JXL_DEC_NEED_MORE_INPUT:
                return .needsMoreInput
            case JXL_DEC_ERROR:
                throw ImageCodingError(.corruptData, format: .jpegXL, "libjxl could not decode the data")
            default:
                continue // events not subscribed to (boxes, colour encoding) are not reported; nothing else to do
            }
        }
        return .finished
    }

    /// The current frame as far as the bytes so far allow (`JxlDecoderFlushImage`), or `nil` when there is none yet.
    /// libjxl 0.7 flushes only once several 256×256 groups have arrived: an image of one group shows nothing early.
    func partialFrame() -> PixelBuffer? {
        guard outputIsSet, lib.JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS else { return nil }
        return pixelsFromOutput()
    }

    private func readBasicInfo() throws {
        var info = JxlBasicInfo()
        try check(lib.JxlDecoderGetBasicInfo(decoder, &info), "reading the basic info")
        let width = Int(info.xsize), height = Int(info.ysize)
        try ImageCodingError.checkDimensions(.jpegXL, width: width, height: height, limit: options.maximumPixelCount)
        orientation = ImageOrientation(exifValue: Int(info.orientation.rawValue))
        loopCount = info.have_animation == JXL_TRUE ? Int(info.animation.num_loops) : 0
        self.info = info
    }

    /// The ICC profile of the samples libjxl hands out, unless they are plain sRGB (nothing to convert).
    private func readColorProfile() {
        var encoding = JxlColorEncoding()
        if lib.JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS,
            encoding.color_space == JXL_COLOR_SPACE_RGB, encoding.white_point == JXL_WHITE_POINT_D65,
            encoding.primaries == JXL_PRIMARIES_SRGB, encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
        {
            return
        }
        var size = 0
        guard lib.JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
            size > 0, size <= 4 << 20
        else { return }
        var bytes = [UInt8](repeating: 0, count: size)
        guard lib.JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &bytes, size) == JXL_DEC_SUCCESS else { return }
        iccProfile = Data(bytes)
        isGray = (info?.num_color_channels ?? 3) == 1
    }

    private func readFrameHeader() throws {
        guard let info else { throw ImageCodingError(.corruptData, format: .jpegXL, "a frame before the basic info") }
        var header = JxlFrameHeader()
        try check(lib.JxlDecoderGetFrameHeader(decoder, &header), "reading a frame header")
        frameIsLast = header.is_last == JXL_TRUE
        frameDuration = Self.duration(ticks: header.duration, info: info)
        guard !frames.isEmpty else { return }
        // One more frame must fit the animation budget.
        let frameBytes = Int(info.xsize) * Int(info.ysize) * PixelBuffer.bytesPerPixel
        let (total, overflow) = frameBytes.multipliedReportingOverflow(by: frames.count + 1)
        guard overflow || total > options.maximumAnimationByteCount else { return }
        if options.firstFrameWhenAnimationTooLarge {
            frames = [frames[0]]
            finish()
            return
        }
        throw ImageCodingError(.animationTooLarge, format: .jpegXL,
                               "\(frames.count + 1)+ frames of \(info.xsize)×\(info.ysize) exceed \(options.maximumAnimationByteCount) bytes")
    }

    private func setOutputBuffer() throws {
        guard let info else { throw ImageCodingError(.corruptData, format: .jpegXL, "pixels before the basic info") }
        var format = Self.pixelFormat
        var size = 0
        try check(lib.JxlDecoderImageOutBufferSize(decoder, &format, &size), "sizing the output")
        let expected = Int(info.xsize) * Int(info.ysize) * PixelBuffer.bytesPerPixel
        guard size == expected else {
            throw ImageCodingError(.corruptData, format: .jpegXL, "libjxl wants \(size) bytes for \(info.xsize)×\(info.ysize)")
        }
        if output == nil {
            output = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            output?.initializeMemory(as: UInt8.self, repeating: 0) // a flushed partial image shows no stale memory
        }
        guard let output else { return }
        try check(lib.JxlDecoderSetImageOutBuffer(decoder, &format, output.baseAddress, size), "setting the output")
        outputIsSet = true
    }

    private func finishFrame() throws {
        guard let pixels = pixelsFromOutput() else {
            throw ImageCodingError(.corruptData, format: .jpegXL, "a frame without pixels")
        }
        frames.append(ImageFrame(pixels: pixels, duration: frameDuration))
        outputIsSet = false
        if frameIsLast || options.firstFrameOnly { finish() }
    }

    private func finish() {
        isFinished = true
        if frames.count == 1 { frames[0].duration = .zero } // a still image (or the first frame alone)
    }

    private func pixelsFromOutput() -> PixelBuffer? {
        guard let info, let output, let source = output.baseAddress else { return nil }
        return PixelBuffer(width: Int(info.xsize), height: Int(info.ysize), hasAlpha: info.alpha_bits > 0) { buffer in
            buffer.baseAddress?.update(from: source.assumingMemoryBound(to: UInt8.self), count: buffer.count)
        }
    }

    /// A frame's duration: `ticks × tps_denominator / tps_numerator` seconds (at most a day).
    private static func duration(ticks: UInt32, info: JxlBasicInfo) -> Duration {
        guard info.have_animation == JXL_TRUE, info.animation.tps_numerator > 0 else { return .zero }
        let seconds = Double(ticks) * Double(info.animation.tps_denominator) / Double(info.animation.tps_numerator)
        return .milliseconds(Int64((min(seconds, 86_400) * 1000).rounded()))
    }

    /// RGBA, 8 bits per sample, rows packed.
    private static let pixelFormat = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)

    func check(_ status: JxlDecoderStatus, _ step: String) throws {
        guard status != JXL_DEC_SUCCESS else { return }
        throw ImageCodingError(.corruptData, format: .jpegXL, "libjxl failed \(step) (status \(status.rawValue))")
    }
}
