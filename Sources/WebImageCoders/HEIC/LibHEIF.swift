import CHEIF
import Foundation

/// The only code that calls libheif 1.15. libheif reports failures as `heif_error` values (it never
/// longjmps), so it is driven from Swift directly; every object it allocates is released by a `defer`.
enum LibHEIF {
    /// What a decode produced, before `ImageDecodingOptions.makeImage(frames:format:orientation:loopCount:data:)`.
    struct Decoded {
        var pixels: PixelBuffer
        var orientation: ImageOrientation
        /// The primary image's size (the pixels may be a smaller stored thumbnail).
        var sourceSize: PixelSize
        /// The ICC profile of a `colr` box of type `prof` or `rICC` (what phones write), if any.
        var iccProfile: Data?
    }

    /// Decodes the primary image of `bytes` (already checked to be a complete HEIF container).
    static func decode(_ bytes: UnsafeRawBufferPointer, format: ImageFormat, options: ImageDecodingOptions) throws -> Decoded {
        let lib = try CodecLibraries.heif.get()
        guard let base = bytes.baseAddress, let context = lib.heif_context_alloc() else {
            throw ImageCodingError(.corruptData, format: format, "libheif could not create a context")
        }
        defer { lib.heif_context_free(context) }
        // libheif keeps its own ceiling (32768 pixels a side, checked while parsing); ours is checked below.
        try check(lib.heif_context_read_from_memory_without_copy(context, base, bytes.count, nil), format)

        var primary: OpaquePointer?
        try check(lib.heif_context_get_primary_image_handle(context, &primary), format)
        guard let primary else { throw ImageCodingError(.corruptData, format: format, "libheif found no primary image") }
        defer { lib.heif_image_handle_release(primary) }
        let width = Int(lib.heif_image_handle_get_width(primary)), height = Int(lib.heif_image_handle_get_height(primary))
        guard width > 0, height > 0 else {
            throw ImageCodingError(.invalidDimensions, format: format, "invalid dimensions \(width)×\(height)")
        }

        // Colour: an ICC `colr` profile is handed on (the coder converts with it); an nclx `colr` box (colour
        // primaries and transfer as code points) is not applied yet (AVIF's is, through CICPColor).
        // Without irot/imir libheif turns nothing, so the EXIF orientation describes the decoded pixels.
        let transformed = AVIFContainer.hasProperty("irot", in: bytes) || AVIFContainer.hasProperty("imir", in: bytes)
        let orientation = transformed ? ImageOrientation.up : exifOrientation(of: primary, using: lib)
        var size = PixelSize(width: width, height: height)
        let source: OpaquePointer?
        if options.prefersEmbeddedThumbnail, let largest = thumbnail(of: primary, covering: PixelSize(width: 0, height: 0), largest: true, using: lib) {
            // The stored thumbnail is the image: the requested size applies to it.
            source = largest
            size = PixelSize(width: Int(lib.heif_image_handle_get_width(largest)), height: Int(lib.heif_image_handle_get_height(largest)))
        } else {
            source = options.targetSize(for: size, orientation: orientation).flatMap { thumbnail(of: primary, covering: $0, using: lib) }
        }
        defer { if let source { lib.heif_image_handle_release(source) } }
        // As for JPEG's shrink-on-load, the limit applies to what is decoded: a stored thumbnail, or the full image.
        if source == nil {
            try ImageCodingError.checkDimensions(format, width: width, height: height, limit: options.maximumPixelCount)
        }
        let pixels = try rgba(of: source ?? primary, format: format, limit: options.maximumPixelCount)
        return Decoded(pixels: pixels, orientation: orientation, sourceSize: size, iccProfile: iccProfile(of: primary, using: lib))
    }

    /// The raw ICC profile of `handle`'s `colr` box, when it has one (at most 4 MiB).
    private static func iccProfile(of handle: OpaquePointer, using lib: wik_heif_functions) -> Data? {
        let type = lib.heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = lib.heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0, size <= 4 << 20 else { return nil }
        var profile = Data(count: size)
        let copied = profile.withUnsafeMutableBytes { buffer in
            lib.heif_image_handle_get_raw_color_profile(handle, buffer.baseAddress).code == heif_error_Ok
        }
        return copied ? profile : nil
    }

    /// The smallest thumbnail of `handle` at least as wide and as tall as `target` (the largest with `largest`),
    /// or `nil` when none is.
    private static func thumbnail(
        of handle: OpaquePointer, covering target: PixelSize, largest: Bool = false, using lib: wik_heif_functions
    ) -> OpaquePointer? {
        let count = Int(lib.heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: min(count, 64))
        let listed = Int(lib.heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(ids.count)))
        var best: (handle: OpaquePointer, pixels: Int)?
        for id in ids.prefix(listed) {
            var thumbnail: OpaquePointer?
            guard lib.heif_image_handle_get_thumbnail(handle, id, &thumbnail).code == heif_error_Ok, let thumbnail else { continue }
            let width = Int(lib.heif_image_handle_get_width(thumbnail)), height = Int(lib.heif_image_handle_get_height(thumbnail))
            if width >= target.width, height >= target.height, best.map({ largest ? width * height > $0.pixels : width * height < $0.pixels }) ?? true {
                if let previous = best { lib.heif_image_handle_release(previous.handle) }
                best = (thumbnail, width * height)
            } else {
                lib.heif_image_handle_release(thumbnail)
            }
        }
        return best?.handle
    }

    /// Decodes `handle` to 8-bit straight-alpha RGBA (libheif scales deeper samples down and applies transforms).
    private static func rgba(of handle: OpaquePointer, format: ImageFormat, limit: Int) throws -> PixelBuffer {
        let lib = try CodecLibraries.heif.get()
        guard let decodingOptions = lib.heif_decoding_options_alloc() else {
            throw ImageCodingError(.corruptData, format: format, "libheif could not allocate decoding options")
        }
        defer { lib.heif_decoding_options_free(decodingOptions) }
        decodingOptions.pointee.convert_hdr_to_8bit = 1
        decodingOptions.pointee.ignore_transformations = 0

        var decoded: OpaquePointer?
        try check(lib.heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, decodingOptions), format)
        guard let decoded else { throw ImageCodingError(.corruptData, format: format, "libheif decoded no image") }
        defer { lib.heif_image_release(decoded) }

        // The HEVC payload decides the final size; it must fit the limit and be the size the file declares
        // (libheif 1.15 does not check that the coded image matches `ispe`).
        let width = Int(lib.heif_image_get_width(decoded, heif_channel_interleaved))
        let height = Int(lib.heif_image_get_height(decoded, heif_channel_interleaved))
        try ImageCodingError.checkDimensions(format, width: width, height: height, limit: limit)
        let declared = (width: Int(lib.heif_image_handle_get_width(handle)), height: Int(lib.heif_image_handle_get_height(handle)))
        guard declared == (width, height) else {
            throw ImageCodingError(.corruptData, format: format,
                                   "the coded image is \(width)×\(height), the file declares \(declared.width)×\(declared.height)")
        }
        guard lib.heif_image_get_bits_per_pixel_range(decoded, heif_channel_interleaved) == 8 else {
            throw ImageCodingError(.corruptData, format: format, "libheif returned samples deeper than 8 bits")
        }
        var stride: Int32 = 0
        guard let plane = lib.heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
              Int(stride) >= width * PixelBuffer.bytesPerPixel else {
            throw ImageCodingError(.corruptData, format: format, "libheif returned no interleaved plane")
        }
        let hasAlpha = lib.heif_image_handle_has_alpha_channel(handle) != 0
        let premultiplied = hasAlpha && lib.heif_image_handle_is_premultiplied_alpha(handle) != 0
        let rowStride = Int(stride)
        return PixelBuffer(width: width, height: height, hasAlpha: hasAlpha) { buffer in
            guard let target = buffer.baseAddress else { return }
            let rowBytes = width * PixelBuffer.bytesPerPixel
            for row in 0..<height {
                (target + row * rowBytes).update(from: plane + row * rowStride, count: rowBytes)
            }
            if premultiplied { unpremultiply(buffer) }
        }
    }

    /// Turns premultiplied RGBA into straight RGBA in place.
    static func unpremultiply(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        for offset in stride(from: 0, to: buffer.count, by: 4) {
            let alpha = Int(buffer[offset + 3])
            guard alpha != 0, alpha != 255 else { continue }
            for channel in 0..<3 {
                buffer[offset + channel] = UInt8(min(255, (Int(buffer[offset + channel]) * 255 + alpha / 2) / alpha))
            }
        }
    }

    /// The orientation tag of the image's `Exif` metadata block, or `.up`.
    private static func exifOrientation(of handle: OpaquePointer, using lib: wik_heif_functions) -> ImageOrientation {
        var id: heif_item_id = 0
        guard lib.heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1 else { return .up }
        let size = lib.heif_image_handle_get_metadata_size(handle, id)
        guard size > 4, size <= 1 << 20 else { return .up }
        var block = [UInt8](repeating: 0, count: size)
        guard lib.heif_image_handle_get_metadata(handle, id, &block).code == heif_error_Ok else { return .up }
        return block.withUnsafeBytes { raw in
            // The block opens with a 4-byte offset to the TIFF header (and often "Exif\0\0"): find the header.
            let start = (0..<min(64, max(0, raw.count - 3))).first { offset in
                let head = (raw[offset], raw[offset + 1], raw[offset + 2], raw[offset + 3])
                return head == (0x49, 0x49, 42, 0) || head == (0x4D, 0x4D, 0, 42)
            }
            guard let start else { return .up }
            return ExifOrientationReader.orientation(inTIFF: UnsafeRawBufferPointer(rebasing: raw[start...])) ?? .up
        }
    }

    // MARK: Errors

    private static func check(_ error: heif_error, _ format: ImageFormat) throws {
        guard error.code != heif_error_Ok else { return }
        throw codingError(error, format)
    }

    /// Maps a `heif_error` to our codes: data that ends early is `.truncatedData`, a size over the
    /// security limit `.imageTooLarge`, an unknown file type `.unsupportedFormat`, the rest `.corruptData`.
    static func codingError(_ error: heif_error, _ format: ImageFormat) -> ImageCodingError {
        let message = error.message.map { String(cString: $0) } ?? "heif_error \(error.code.rawValue)"
        let code: ImageCodingError.Code = switch (error.code, error.subcode) {
        case (_, heif_suberror_End_of_data): .truncatedData
        case (_, heif_suberror_Security_limit_exceeded): .imageTooLarge
        case (heif_error_Unsupported_filetype, _): .unsupportedFormat
        default: .corruptData
        }
        return ImageCodingError(code, format: format, message)
    }
}
