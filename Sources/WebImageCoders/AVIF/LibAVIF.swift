import CAVIF
import Foundation

/// The only code that calls libavif 0.11.1. libavif reports failures as `avifResult` codes (it never
/// longjmps), so it is driven from Swift directly; every object it allocates is released by a `defer`.
enum LibAVIF {
    /// What a decode produced, before `ImageDecodingOptions.makeImage(frames:format:orientation:loopCount:data:)`.
    struct Decoded {
        var frames: [ImageFrame]
        var orientation: ImageOrientation
        /// The ICC profile of a `colr` box of type `prof` (or `rICC`), or one made from the nclx code points
        /// (``CICPColor``) when they are not sRGB's.
        var iccProfile: Data?
        /// The stored size, when the frame was already resampled to the options' target while converting.
        var sourceSize: PixelSize?
    }

    // MARK: Decoding

    /// Decodes `bytes` (already checked to be a complete AVIF container) into RGBA frames.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions, configuration: AVIFCoder.Configuration
    ) throws -> Decoded {
        let lib = try CodecLibraries.avif.get()
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), let decoder = lib.avifDecoderCreate() else {
            throw ImageCodingError(.corruptData, format: .avif, "libavif could not create a decoder")
        }
        defer { lib.avifDecoderDestroy(decoder) }
        decoder.pointee.maxThreads = Int32(clamping: configuration.maximumThreads)
        decoder.pointee.codecChoice = configuration.decodingCodec.avifChoice
        // libavif (and dav1d) refuse anything larger than this before decoding; we check the exact limit below.
        decoder.pointee.imageSizeLimit = UInt32(clamping: max(1, min(options.maximumPixelCount, libavifSizeLimit)))
        decoder.pointee.imageDimensionLimit = 0 // the pixel-count limit is the one rule
        decoder.pointee.ignoreXMP = AVIF_TRUE
        // Browsers accept files that miss properties strict mode requires (such as `pixi`); so do we.
        decoder.pointee.strictFlags = AVIF_STRICT_DISABLED.rawValue

        try check(lib.avifDecoderSetIOMemory(decoder, base, bytes.count), decoder)
        let parsed = lib.avifDecoderParse(decoder)
        if parsed != AVIF_RESULT_OK {
            // libavif rejects an oversized `ispe` without saying how large it is: report it as too large.
            let limit = min(options.maximumPixelCount, libavifSizeLimit)
            for extent in AVIFContainer.spatialExtents(bytes) {
                try ImageCodingError.checkDimensions(.avif, width: extent.width, height: extent.height, limit: limit)
            }
            throw error(parsed, decoder)
        }
        guard let header = decoder.pointee.image else {
            throw ImageCodingError(.corruptData, format: .avif, "libavif parsed no image")
        }
        let width = Int(header.pointee.width), height = Int(header.pointee.height)
        try ImageCodingError.checkDimensions(.avif, width: width, height: height, limit: options.maximumPixelCount)
        let orientation = orientation(of: header)
        let frameCount = try framesToDecode(decoder, width: width, height: height, options: options)

        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        var sourceSize: PixelSize?
        for _ in 0..<frameCount {
            try check(lib.avifDecoderNextImage(decoder), decoder)
            guard let image = decoder.pointee.image else {
                throw ImageCodingError(.corruptData, format: .avif, "libavif decoded no image")
            }
            // The AV1 payload decides the final size; it must fit the limit and match the first frame.
            let frameWidth = Int(image.pointee.width), frameHeight = Int(image.pointee.height)
            try ImageCodingError.checkDimensions(.avif, width: frameWidth, height: frameHeight, limit: options.maximumPixelCount)
            if let first = frames.first?.pixels, first.width != frameWidth || first.height != frameHeight {
                throw ImageCodingError(.corruptData, format: .avif,
                                       "frame of \(frameWidth)×\(frameHeight) in a \(first.width)×\(first.height) sequence")
            }
            let target = frameCount == 1 ? options.targetSize(for: PixelSize(width: frameWidth, height: frameHeight), orientation: orientation) : nil
            let pixels = try target.map { try rgbaResampled(of: image, width: frameWidth, height: frameHeight, to: $0) }
                ?? rgba(of: image, width: frameWidth, height: frameHeight)
            if target != nil { sourceSize = PixelSize(width: frameWidth, height: frameHeight) }
            let duration = frameCount > 1 ? duration(of: decoder.pointee.imageTiming) : .zero
            frames.append(ImageFrame(pixels: pixels, duration: duration))
        }
        let icc = header.pointee.icc
        // Without an ICC profile, the nclx code points (or the AV1 sequence header's) describe the colour.
        let profile = icc.size > 0 ? icc.data.map { Data(bytes: $0, count: icc.size) }
            : CICPColor(primaries: header.pointee.colorPrimaries, transfer: header.pointee.transferCharacteristics).iccProfile()
        return Decoded(frames: frames, orientation: orientation, iccProfile: profile, sourceSize: sourceSize)
    }

    /// libavif's own ceiling on the pixels of one image (`AVIF_DEFAULT_IMAGE_SIZE_LIMIT`, 16384 × 16384).
    private static let libavifSizeLimit = 16384 * 16384

    /// How many frames to decode: all, or one when asked to, or when all would exceed the animation memory limit.
    private static func framesToDecode(
        _ decoder: UnsafeMutablePointer<avifDecoder>, width: Int, height: Int, options: ImageDecodingOptions
    ) throws -> Int {
        let count = Int(max(1, decoder.pointee.imageCount))
        guard count > 1, !options.firstFrameOnly else { return 1 }
        let (total, overflow) = (width * height * PixelBuffer.bytesPerPixel).multipliedReportingOverflow(by: count)
        guard overflow || total > options.maximumAnimationByteCount else { return count }
        if options.firstFrameWhenAnimationTooLarge { return 1 }
        throw ImageCodingError(.animationTooLarge, format: .avif,
                               "\(count) frames of \(width)×\(height) exceed \(options.maximumAnimationByteCount) bytes")
    }

    /// Converts the decoded YUV(A) image to 8-bit straight-alpha RGBA, straight into the buffer's storage.
    private static func rgba(of image: UnsafeMutablePointer<avifImage>, width: Int, height: Int) throws -> PixelBuffer {
        let lib = try CodecLibraries.avif.get()
        // Without an alpha plane libavif writes 255 into every alpha byte.
        return try PixelBuffer(width: width, height: height, hasAlpha: image.pointee.alphaPlane != nil) { buffer throws(ImageCodingError) in
            var rgb = avifRGBImage()
            lib.avifRGBImageSetDefaults(&rgb, image)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = 8 // libavif scales 10- and 12-bit samples down
            rgb.alphaPremultiplied = AVIF_FALSE // libavif un-premultiplies a premultiplied file
            rgb.pixels = buffer.baseAddress
            rgb.rowBytes = UInt32(width * PixelBuffer.bytesPerPixel)
            let result = lib.avifImageYUVToRGB(image, &rgb)
            guard result == AVIF_RESULT_OK else {
                throw ImageCodingError(.corruptData, format: .avif, "YUV to RGB conversion failed: \(describe(result))")
            }
        }
    }

    /// Converts the decoded YUV(A) image to RGBA a band of rows at a time (views of the planes, as
    /// libavif's `avifImageSetViewRect` gives them) and resamples each band to `target` as it comes
    /// (issue 15): a thumbnail or scale-down never holds the full-size RGBA image.
    private static func rgbaResampled(
        of image: UnsafeMutablePointer<avifImage>, width: Int, height: Int, to target: PixelSize
    ) throws -> PixelBuffer {
        let lib = try CodecLibraries.avif.get()
        // A view of subsampled planes must start on an even row: every band but the last has an even height.
        let evenRows = image.pointee.yuvFormat == AVIF_PIXEL_FORMAT_YUV420
        var nextRow = 0
        return try BandedDecode.pixels(
            decodedSize: PixelSize(width: width, height: height), target: target,
            hasAlpha: image.pointee.alphaPlane != nil, format: .avif
        ) { buffer, maximumRows throws(ImageCodingError) in
            var rows = min(maximumRows, height - nextRow)
            if evenRows, rows > 1, nextRow + rows < height { rows &= ~1 }
            var view = avifImage()
            var rect = avifCropRect(x: 0, y: UInt32(nextRow), width: UInt32(width), height: UInt32(rows))
            let viewed = lib.avifImageSetViewRect(&view, image, &rect)
            guard viewed == AVIF_RESULT_OK else {
                throw ImageCodingError(.corruptData, format: .avif, "could not view rows \(nextRow)…: \(describe(viewed))")
            }
            var rgb = avifRGBImage()
            lib.avifRGBImageSetDefaults(&rgb, &view)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = 8
            rgb.alphaPremultiplied = AVIF_FALSE
            rgb.pixels = buffer.baseAddress
            rgb.rowBytes = UInt32(width * PixelBuffer.bytesPerPixel)
            let converted = lib.avifImageYUVToRGB(&view, &rgb)
            guard converted == AVIF_RESULT_OK else {
                throw ImageCodingError(.corruptData, format: .avif, "YUV to RGB conversion failed: \(describe(converted))")
            }
            nextRow += rows
            return rows
        }
    }

    /// The orientation from `irot`/`imir`, or else from the EXIF block's orientation tag.
    private static func orientation(of image: UnsafeMutablePointer<avifImage>) -> ImageOrientation {
        let flags = image.pointee.transformFlags
        let rotation = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.pointee.irot.angle) : nil
        let mirror = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.pointee.imir.mode) : nil
        if rotation != nil || mirror != nil {
            return ImageOrientation(heifRotation: rotation, mirror: mirror)
        }
        let exif = image.pointee.exif
        guard let data = exif.data, exif.size > 0 else { return .up }
        // libavif 0.11 drops the item's 4-byte TIFF-offset prefix but keeps whatever precedes the TIFF
        // header (vips writes "Exif\0\0"): start at the header, as libavif itself looks for it.
        let block = UnsafeRawBufferPointer(start: data, count: exif.size)
        let start = (0..<min(64, max(0, block.count - 3))).first { offset in
            let head = (block[offset], block[offset + 1], block[offset + 2], block[offset + 3])
            return head == (0x49, 0x49, 42, 0) || head == (0x4D, 0x4D, 0, 42)
        }
        guard let start else { return .up }
        return ExifOrientationReader.orientation(inTIFF: UnsafeRawBufferPointer(rebasing: block[start...])) ?? .up
    }

    /// A frame's duration, exact to the nanosecond for any timescale.
    private static func duration(of timing: avifImageTiming) -> Duration {
        guard timing.timescale > 0 else { return .zero }
        let (seconds, remainder) = timing.durationInTimescales.quotientAndRemainder(dividingBy: timing.timescale)
        let product = remainder.multipliedFullWidth(by: 1_000_000_000)
        let nanoseconds = timing.timescale.dividingFullWidth(product).quotient // < 10⁹: remainder < timescale
        return .seconds(Int64(clamping: seconds)) + .nanoseconds(Int64(nanoseconds))
    }

    // MARK: Encoding

    /// Encodes `frames` (one: a still image; more: an `avis` sequence with millisecond durations).
    static func encode(
        frames: [ImageFrame], orientation: ImageOrientation, quantizer: Int, lossless: Bool, speed: Int,
        exif: Data? = nil, xmp: Data? = nil, profile: Data? = nil, configuration: AVIFCoder.Configuration
    ) throws -> Data {
        let lib = try CodecLibraries.avif.get()
        let first = frames[0].pixels
        let layout = lossless ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        guard let image = lib.avifImageCreate(UInt32(first.width), UInt32(first.height), 8, layout),
              let encoder = lib.avifEncoderCreate() else {
            throw ImageCodingError(.encodingFailed, format: .avif, "libavif could not allocate an encoder")
        }
        defer { lib.avifImageDestroy(image) }
        defer { lib.avifEncoderDestroy(encoder) }

        // sRGB: BT.709 primaries, sRGB transfer; BT.601 matrix for lossy, identity (RGB as is) for lossless.
        image.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_BT709)
        image.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        image.pointee.matrixCoefficients = avifMatrixCoefficients(
            lossless ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601)
        image.pointee.yuvRange = AVIF_RANGE_FULL
        let transform = orientation.heifTransform
        if let rotation = transform.rotation {
            image.pointee.transformFlags |= AVIF_TRANSFORM_IROT.rawValue
            image.pointee.irot.angle = UInt8(rotation)
        }
        if let mirror = transform.mirror {
            image.pointee.transformFlags |= AVIF_TRANSFORM_IMIR.rawValue
            image.pointee.imir.mode = UInt8(mirror)
        }

        if let exif {
            exif.withUnsafeBytes { _ = lib.avifImageSetMetadataExif(image, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
        }
        if let xmp {
            xmp.withUnsafeBytes { _ = lib.avifImageSetMetadataXMP(image, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
        }
        if let profile {
            profile.withUnsafeBytes { _ = lib.avifImageSetProfileICC(image, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
        }
        encoder.pointee.codecChoice = configuration.encodingCodec.avifChoice
        encoder.pointee.maxThreads = Int32(clamping: configuration.maximumThreads)
        encoder.pointee.speed = Int32(min(max(speed, 0), 10))
        encoder.pointee.timescale = 1000
        let q = Int32(min(max(quantizer, 0), 63))
        (encoder.pointee.minQuantizer, encoder.pointee.maxQuantizer) = (q, q)
        (encoder.pointee.minQuantizerAlpha, encoder.pointee.maxQuantizerAlpha) = (q, q)

        let hasAlpha = frames.contains { $0.pixels.hasAlpha }
        let flags = frames.count == 1 ? AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue : AVIF_ADD_IMAGE_FLAG_NONE.rawValue
        for frame in frames {
            try frame.pixels.withUnsafeBytes { pixels throws in
                var rgb = avifRGBImage()
                lib.avifRGBImageSetDefaults(&rgb, image)
                rgb.format = AVIF_RGB_FORMAT_RGBA
                rgb.depth = 8
                rgb.ignoreAlpha = hasAlpha ? AVIF_FALSE : AVIF_TRUE // no alpha plane for an opaque image
                rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress?.assumingMemoryBound(to: UInt8.self))
                rgb.rowBytes = UInt32(frame.pixels.bytesPerRow)
                try checkEncoding(lib.avifImageRGBToYUV(image, &rgb), encoder, "RGB to YUV conversion")
            }
            let milliseconds = UInt64(min(max(1, (frame.duration / .milliseconds(1)).rounded()), Double(UInt32.max)))
            try checkEncoding(lib.avifEncoderAddImage(encoder, image, milliseconds, flags), encoder, "adding a frame")
        }

        var output = avifRWData(data: nil, size: 0)
        defer { lib.avifRWDataFree(&output) }
        try checkEncoding(lib.avifEncoderFinish(encoder, &output), encoder, "finishing")
        guard let data = output.data, output.size > 0 else {
            throw ImageCodingError(.encodingFailed, format: .avif, "libavif produced no data")
        }
        return Data(bytes: data, count: output.size)
    }

    // MARK: Errors

    private static func check(_ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>) throws {
        guard result == AVIF_RESULT_OK else { throw error(result, decoder) }
    }

    /// Maps a decoding `avifResult` to our codes: data that ends early is `.truncatedData`, the rest `.corruptData`.
    private static func error(_ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>) -> ImageCodingError {
        let detail = diagnostic(&decoder.pointee.diag)
        let message = detail.isEmpty ? describe(result) : "\(describe(result)): \(detail)"
        // A parse that runs past the end says so only in its diagnostic ("Truncated data?", "possibly truncated data").
        let truncated = result == AVIF_RESULT_TRUNCATED_DATA
            || (result == AVIF_RESULT_BMFF_PARSE_FAILED && detail.lowercased().contains("truncated"))
        return ImageCodingError(truncated ? .truncatedData : .corruptData, format: .avif, message)
    }

    private static func checkEncoding(
        _ result: avifResult, _ encoder: UnsafeMutablePointer<avifEncoder>, _ step: String
    ) throws {
        guard result != AVIF_RESULT_OK else { return }
        let detail = diagnostic(&encoder.pointee.diag)
        throw ImageCodingError(.encodingFailed, format: .avif,
                               "\(step) failed: \(describe(result))" + (detail.isEmpty ? "" : ": \(detail)"))
    }

    /// libavif's name for `result` (the library is open: it produced the result).
    private static func describe(_ result: avifResult) -> String {
        let name = try? CodecLibraries.avif.get().avifResultToString(result)
        return name.flatMap { $0 }.map { String(cString: $0) } ?? "avifResult \(result.rawValue)"
    }

    /// The NUL-terminated message in an `avifDiagnostics` buffer.
    private static func diagnostic(_ diag: inout avifDiagnostics) -> String {
        withUnsafeBytes(of: &diag.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

extension AVIFCoder.Codec {
    /// libavif's name for the codec.
    fileprivate var avifChoice: avifCodecChoice {
        switch self {
        case .automatic: AVIF_CODEC_CHOICE_AUTO
        case .aom: AVIF_CODEC_CHOICE_AOM
        case .dav1d: AVIF_CODEC_CHOICE_DAV1D
        case .libgav1: AVIF_CODEC_CHOICE_LIBGAV1
        case .rav1e: AVIF_CODEC_CHOICE_RAV1E
        case .svt: AVIF_CODEC_CHOICE_SVT
        }
    }
}
