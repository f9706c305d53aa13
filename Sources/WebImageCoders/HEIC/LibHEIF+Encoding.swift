import CHEIF
import Foundation

extension LibHEIF {
    /// Encodes one frame as a HEIC still image (HEVC through libheif's x265 plug-in) at `quality` (0–100).
    /// An `orientation` other than `.up` is written as `irot`/`imir` (libheif's `image_orientation`); `exif`
    /// and `xmp` become the image's metadata items.
    static func encode(
        _ pixels: PixelBuffer, orientation: ImageOrientation, quality: Int, exif: Data? = nil, xmp: Data? = nil
    ) throws -> Data {
        let lib = try CodecLibraries.heif.get()
        guard let context = lib.heif_context_alloc() else {
            throw ImageCodingError(.encodingFailed, format: .heic, "libheif could not create a context")
        }
        defer { lib.heif_context_free(context) }
        var encoder: OpaquePointer?
        try checkEncoding(lib.heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "finding an HEVC encoder")
        guard let encoder else { throw ImageCodingError(.encodingFailed, format: .heic, "libheif has no HEVC encoder") }
        defer { lib.heif_encoder_release(encoder) }
        try checkEncoding(lib.heif_encoder_set_lossy_quality(encoder, Int32(min(max(quality, 0), 100))), "setting the quality")

        let image = try heifImage(of: pixels)
        defer { lib.heif_image_release(image) }
        guard let options = lib.heif_encoding_options_alloc() else {
            throw ImageCodingError(.encodingFailed, format: .heic, "libheif could not allocate encoding options")
        }
        defer { lib.heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(UInt32(orientation.exifValue))
        var handle: OpaquePointer?
        try checkEncoding(lib.heif_context_encode_image(context, image, encoder, options, &handle), "encoding")
        if let handle {
            defer { lib.heif_image_handle_release(handle) }
            if let exif {
                try exif.withUnsafeBytes { bytes in
                    try checkEncoding(lib.heif_context_add_exif_metadata(context, handle, bytes.baseAddress, Int32(bytes.count)), "adding EXIF")
                }
            }
            if let xmp {
                try xmp.withUnsafeBytes { bytes in
                    try checkEncoding(lib.heif_context_add_XMP_metadata(context, handle, bytes.baseAddress, Int32(bytes.count)), "adding XMP")
                }
            }
        }

        let output = OutputBuffer()
        var writer = heif_writer(writer_api_version: 1, write: { _, data, size, userdata in
            if let data, let userdata {
                Unmanaged<OutputBuffer>.fromOpaque(userdata).takeUnretainedValue().data.append(
                    data.assumingMemoryBound(to: UInt8.self), count: size)
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: LibHEIF.successMessage)
        })
        try checkEncoding(lib.heif_context_write(context, &writer, Unmanaged.passUnretained(output).toOpaque()), "writing")
        return withExtendedLifetime(output) { output.data }
    }

    /// An RGB(A) libheif image holding a copy of `pixels` (RGB when they are opaque, so no alpha plane is written).
    private static func heifImage(of pixels: PixelBuffer) throws -> OpaquePointer {
        let lib = try CodecLibraries.heif.get()
        let hasAlpha = pixels.hasAlpha && !pixels.isOpaque
        var image: OpaquePointer?
        try checkEncoding(lib.heif_image_create(Int32(pixels.width), Int32(pixels.height), heif_colorspace_RGB,
                                            hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image),
                          "creating an image")
        guard let image else { throw ImageCodingError(.encodingFailed, format: .heic, "libheif created no image") }
        var stride: Int32 = 0
        guard lib.heif_image_add_plane(image, heif_channel_interleaved, Int32(pixels.width), Int32(pixels.height), 8).code == heif_error_Ok,
              let plane = lib.heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            lib.heif_image_release(image)
            throw ImageCodingError(.encodingFailed, format: .heic, "libheif could not allocate the pixels")
        }
        let channels = hasAlpha ? 4 : 3
        pixels.withUnsafeBytes { source in
            for row in 0..<pixels.height {
                let target = plane + row * Int(stride)
                let start = row * pixels.bytesPerRow
                for column in 0..<pixels.width {
                    for channel in 0..<channels {
                        target[column * channels + channel] = source[start + column * 4 + channel]
                    }
                }
            }
        }
        return image
    }

    /// The message of the `heif_error` the writer returns; libheif reads it as a C string.
    nonisolated(unsafe) static let successMessage: UnsafePointer<CChar> = {
        let message = "Success"
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: message.utf8.count + 1)
        message.withCString { buffer.initialize(from: $0, count: message.utf8.count + 1) }
        return UnsafePointer(buffer)
    }()

    private static func checkEncoding(_ error: heif_error, _ step: String) throws {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "heif_error \(error.code.rawValue)"
        throw ImageCodingError(.encodingFailed, format: .heic, "libheif failed \(step): \(message)")
    }
}

/// Collects what libheif's writer callback hands over.
private final class OutputBuffer {
    var data = Data()
}
