import CWebImageShims
import Foundation

/// The Swift side of the libjpeg-turbo glue in `wik_jpeg.c`: the only file of the JPEG coder that
/// touches C. The C functions own every libjpeg call and jump buffer; here we pass buffers in and
/// turn status codes into ``ImageCodingError``.
enum LibJPEG {
    /// The size of the buffer the C side writes error messages into.
    private static let messageCapacity = 256

    /// Reads the header and the output size at `scale`.
    static func header(of bytes: UnsafeRawBufferPointer, scale: JPEGCoder.DCTScale) throws(ImageCodingError) -> JPEGCoder.Info {
        var info = wik_jpeg_info()
        let (status, message) = withMessageBuffer { err, length in
            wik_jpeg_read_header(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32(scale.rawValue), &info, err, length)
        }
        try check(status, message)
        return JPEGCoder.Info(
            size: PixelSize(width: Int(info.width), height: Int(info.height)),
            outputSize: PixelSize(width: Int(info.output_width), height: Int(info.output_height)),
            componentCount: Int(info.components),
            colorSpace: colorSpace(info.color_space),
            isProgressive: info.progressive != 0,
            hasAdobeMarker: info.adobe_marker != 0
        )
    }

    /// Decodes into `output`, which holds `size` RGBA pixels without row padding.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, scale: JPEGCoder.DCTScale, into output: UnsafeMutableBufferPointer<UInt8>,
        size: PixelSize, maximumWorkingMemory: Int
    ) throws(ImageCodingError) {
        let (status, message) = withMessageBuffer { err, length in
            wik_jpeg_decode_rgba(
                bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32(scale.rawValue),
                output.baseAddress, size.width * PixelBuffer.bytesPerPixel, UInt32(size.width), UInt32(size.height),
                maximumWorkingMemory, err, length
            )
        }
        try check(status, message)
    }

    /// Encodes the RGBA pixels (alpha ignored) with an EXIF orientation when it is not `.up`.
    static func encode(_ pixels: PixelBuffer, quality: Int, orientation: ImageOrientation) throws(ImageCodingError) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        let (status, message) = pixels.withUnsafeBytes { raw in
            withMessageBuffer { err, length in
                wik_jpeg_encode_rgba(
                    raw.bindMemory(to: UInt8.self).baseAddress, UInt32(clamping: pixels.width), UInt32(clamping: pixels.height),
                    pixels.bytesPerRow, Int32(quality), Int32(orientation.exifValue), &output, &outputSize, err, length
                )
            }
        }
        guard status == WIK_JPEG_OK.rawValue, let output else {
            wik_jpeg_free(output)
            throw ImageCodingError(.encodingFailed, format: .jpeg, message.isEmpty ? "libjpeg failed" : message)
        }
        // Hand the C buffer to Data without copying; Data frees it.
        return Data(bytesNoCopy: output, count: outputSize, deallocator: .custom { pointer, _ in
            wik_jpeg_free(pointer.assumingMemoryBound(to: UInt8.self))
        })
    }

    /// Calls `body` with a zeroed C message buffer; returns its status and the message it wrote.
    private static func withMessageBuffer(
        _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32
    ) -> (status: Int32, message: String) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: messageCapacity) { buffer in
            buffer.initialize(repeating: 0)
            guard let base = buffer.baseAddress else { return (Int32(WIK_JPEG_CORRUPT.rawValue), "no message buffer") }
            let status = body(base, buffer.count)
            let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (status, message)
        }
    }

    private static func check(_ status: Int32, _ message: String) throws(ImageCodingError) {
        switch UInt32(bitPattern: status) {
        case WIK_JPEG_OK.rawValue: return
        case WIK_JPEG_TRUNCATED.rawValue: throw ImageCodingError(.truncatedData, format: .jpeg, message)
        case WIK_JPEG_TOO_LARGE.rawValue:
            throw ImageCodingError(.imageTooLarge, format: .jpeg, "decoding needs more memory than the limit allows: \(message)")
        default: throw ImageCodingError(.corruptData, format: .jpeg, message.isEmpty ? "libjpeg failed" : message)
        }
    }

    private static func colorSpace(_ space: wik_jpeg_color_space) -> JPEGCoder.ColorSpace {
        switch space {
        case WIK_JPEG_COLOR_GRAY: .gray
        case WIK_JPEG_COLOR_YCBCR: .yCbCr
        case WIK_JPEG_COLOR_RGB: .rgb
        case WIK_JPEG_COLOR_CMYK: .cmyk
        case WIK_JPEG_COLOR_YCCK: .ycck
        default: .unknown
        }
    }
}
