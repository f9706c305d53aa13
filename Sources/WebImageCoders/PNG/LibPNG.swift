import CWebImageShims
import Foundation
import WebImageCore

/// The one Swift file that talks to the PNG glue (`wik_png.c`), which drives libpng and owns its setjmp.
///
/// Pointers never leave the `withUnsafe…` scopes below; the C decoder and every buffer C allocates
/// are released by `defer` on every path.
enum LibPNG {
    /// What a decode produces: the pixels and the orientation from an `eXIf` chunk.
    struct Decoded {
        var pixels: PixelBuffer
        var orientation: ImageOrientation
        /// The size the IHDR declares (the pixels are smaller after a row-by-row scale-down).
        var storedSize: PixelSize
        /// What a lenient decode let pass (rows counted in `pixels`); empty for a clean file.
        var issues: [DecodingIssue] = []
    }

    /// Room for libpng's error and warning messages.
    private static let messageCapacity = 256

    /// Decodes PNG bytes into RGBA8, checking the IHDR's size against `maximumPixelCount` first.
    ///
    /// When `target` gives a smaller size for the stored size and the orientation known from the
    /// header, a non-interlaced image is decoded row by row and resampled band by band to it (issue
    /// 15), never holding the full-size pixels. An Adam7 image is decoded whole (its rows are
    /// complete only after the last pass) and left at its stored size for the caller to resample.
    ///
    /// With `fileDescriptor`, `data` is only the file's start: libpng reads on from the descriptor (from
    /// its current position) once `data` is used up, 64 KiB at a time, so the file is never whole in memory.
    ///
    /// With `strict: false` the decode is lenient (`wik_png_decoder_set_lenient`): checksum errors are ignored,
    /// rows after broken or missing data are transparent, and ``Decoded/issues`` says so.
    static func decode(
        _ data: Data, readingOnFrom fileDescriptor: Int32? = nil, maximumPixelCount: Int, strict: Bool = true,
        target: (PixelSize, ImageOrientation) -> PixelSize? = { _, _ in nil }
    ) throws -> Decoded {
        try data.withUnsafeBytes { raw in
            try withMessageBuffer { message in
                let bytes = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
                guard let decoder = wik_png_decoder_create(bytes, raw.count) else {
                    throw ImageCodingError(.corruptData, format: .png, "out of memory creating the libpng decoder")
                }
                defer { wik_png_decoder_destroy(decoder) }
                if let fileDescriptor, wik_png_decoder_read_on_from(decoder, fileDescriptor) == 0 {
                    throw ImageCodingError(.corruptData, format: .png, "out of memory for the file buffer")
                }
                if !strict { wik_png_decoder_set_lenient(decoder) }

                var header = wik_png_header()
                let status = wik_png_read_header(decoder, &header, message.baseAddress, message.count)
                let width = Int(header.width), height = Int(header.height)
                if width > 0, height > 0 {
                    // Even when a later chunk is broken, an IHDR over the limit is reported as such.
                    try ImageCodingError.checkDimensions(.png, width: width, height: height, limit: maximumPixelCount)
                }
                try check(status, message, while: "reading the header")
                try ImageCodingError.checkDimensions(.png, width: width, height: height, limit: maximumPixelCount)

                let stored = PixelSize(width: width, height: height)
                if header.interlace_method == 0, let target = target(stored, orientation(of: decoder)), target != stored {
                    let decoded = try decodeRows(decoder, storedSize: stored, to: target, hasAlpha: header.has_alpha != 0, message: message)
                    return withDamage(of: decoder, decoded)
                }
                let pixels = try PixelBuffer(width: width, height: height, hasAlpha: header.has_alpha != 0) {
                    (buffer: UnsafeMutableBufferPointer<UInt8>) throws(ImageCodingError) in
                    let status = wik_png_read_rgba(
                        decoder, buffer.baseAddress, width * PixelBuffer.bytesPerPixel, buffer.count,
                        message.baseAddress, message.count
                    )
                    try check(status, message, while: "decoding the pixels")
                }
                return withDamage(of: decoder, Decoded(pixels: pixels, orientation: orientation(of: decoder), storedSize: stored))
            }
        }
    }

    /// `decoded` with the issues a lenient `decoder` let pass. When rows were lost, the pixels from the first lost row
    /// down are transparent (also after a scale-down, whose resampler was set up for the image as the header describes
    /// it) and say they have alpha.
    private static func withDamage(of decoder: OpaquePointer, _ decoded: Decoded) -> Decoded {
        var damage = wik_png_damage()
        wik_png_get_damage(decoder, &damage)
        let detail = withUnsafeBytes(of: damage.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var decoded = decoded
        if damage.checksum_mismatch != 0 {
            decoded.issues.append(DecodingIssue(.checksumMismatch, detail: damage.ended_early != 0 ? "CRC error" : detail))
        }
        if damage.ended_early != 0 {
            let issue = DecodingIssue(
                damage.truncated != 0 ? .truncated : .corruptData,
                firstDamagedRow: damage.first_bad_row >= 0 ? Int(damage.first_bad_row) : nil, detail: detail
            ).scalingRows(from: decoded.storedSize.height, to: decoded.pixels.height)
            decoded.issues.append(issue)
            if let row = issue.firstDamagedRow {
                let pixels = decoded.pixels
                var bytes = pixels.bytes
                let start = min(row, pixels.height) * pixels.width * PixelBuffer.bytesPerPixel
                bytes.replaceSubrange(start..., with: repeatElement(0, count: bytes.count - start))
                decoded.pixels = PixelBuffer(width: pixels.width, height: pixels.height, hasAlpha: true, bytes: bytes)
            }
        }
        return decoded
    }

    /// Reads a non-interlaced image row by row (after its header) and resamples it to `target` band by band.
    private static func decodeRows(
        _ decoder: OpaquePointer, storedSize: PixelSize, to target: PixelSize, hasAlpha: Bool,
        message: UnsafeMutableBufferPointer<CChar>
    ) throws -> Decoded {
        try check(wik_png_start_rows(decoder, message.baseAddress, message.count), message, while: "starting the rows")
        let stride = storedSize.width * PixelBuffer.bytesPerPixel
        let pixels = try BandedDecode.pixels(decodedSize: storedSize, target: target, hasAlpha: hasAlpha, format: .png) {
            buffer, rows throws(ImageCodingError) in
            let count = min(rows, buffer.count / stride)
            let status = wik_png_read_rows(decoder, buffer.baseAddress, stride, UInt32(clamping: count), message.baseAddress, message.count)
            try check(status, message, while: "decoding the rows")
            return count
        }
        try check(wik_png_finish_rows(decoder, message.baseAddress, message.count), message, while: "reading past the image data")
        return Decoded(pixels: pixels, orientation: orientation(of: decoder), storedSize: storedSize)
    }

    /// Encodes `pixels` as an 8-bit RGBA PNG when `keepsAlpha`, else as 8-bit RGB.
    static func encode(
        _ pixels: PixelBuffer, keepsAlpha: Bool, compressionLevel: Int32, interlaced: Bool, palette: GIFIndexedFrame? = nil
    ) throws -> Data {
        guard let width = UInt32(exactly: pixels.width), let height = UInt32(exactly: pixels.height),
              width > 0, height > 0, width <= Int32.max, height <= Int32.max else {
            throw ImageCodingError(.encodingFailed, format: .png, "cannot encode \(pixels.width)×\(pixels.height) pixels as PNG")
        }
        return try withRows(pixels, palette: palette) { rows, stride in
            try withMessageBuffer { message in
                var output: UnsafeMutablePointer<UInt8>?
                var size = 0
                let status = (palette?.colors ?? []).withUnsafeBufferPointer { colors in
                    wik_png_encode_rgba(
                        rows.baseAddress?.assumingMemoryBound(to: UInt8.self), width, height, stride,
                        keepsAlpha ? 1 : 0, compressionLevel, interlaced ? 1 : 0,
                        palette == nil ? nil : colors.baseAddress, Int32(colors.count / 3), Int32(palette?.transparentIndex ?? -1),
                        &output, &size, message.baseAddress, message.count
                    )
                }
                defer { wik_png_free(output) }
                guard status == WIK_PNG_OK, let output else {
                    throw ImageCodingError(.encodingFailed, format: .png, "libpng: \(text(of: message, default: "encoding failed"))")
                }
                return Data(bytes: output, count: size)
            }
        }
    }

    /// Calls `body` with the rows to encode and their stride: the palette indices when there is a palette, else the RGBA pixels.
    private static func withRows<R>(
        _ pixels: PixelBuffer, palette: GIFIndexedFrame?, _ body: (UnsafeRawBufferPointer, Int) throws -> R
    ) throws -> R {
        if let palette {
            return try palette.indices.withUnsafeBytes { try body($0, pixels.width) }
        }
        return try pixels.withUnsafeBytes { try body($0, pixels.bytesPerRow) }
    }

    /// The orientation in the file's `eXIf` chunk, `.up` when there is none or it has no orientation tag.
    private static func orientation(of decoder: OpaquePointer) -> ImageOrientation {
        var exif: UnsafePointer<UInt8>?
        var size = 0
        guard wik_png_exif(decoder, &exif, &size) != 0, let exif else { return .up }
        return ExifOrientationReader.orientation(inTIFF: UnsafeRawBufferPointer(start: exif, count: size)) ?? .up
    }

    /// Throws the `ImageCodingError` matching a failed status.
    private static func check(
        _ status: wik_png_status, _ message: UnsafeMutableBufferPointer<CChar>, while step: String
    ) throws(ImageCodingError) {
        let code: ImageCodingError.Code
        switch status {
        case WIK_PNG_OK: return
        case WIK_PNG_TRUNCATED: code = .truncatedData
        case WIK_PNG_READ_FAILED: code = .readFailed
        default: code = .corruptData
        }
        throw ImageCodingError(code, format: .png, "libpng, \(step): \(text(of: message, default: "unknown error"))")
    }

    private static func withMessageBuffer<R>(_ body: (UnsafeMutableBufferPointer<CChar>) throws -> R) throws -> R {
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: messageCapacity) { message in
            message.initialize(repeating: 0)
            return try body(message)
        }
    }

    private static func text(of message: UnsafeMutableBufferPointer<CChar>, default fallback: String) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? fallback : String(decoding: bytes, as: UTF8.self)
    }
}

extension LibPNG {
    /// Owns one C progressive reader (`wik_png_progressive`, libpng's push reader) and frees it in `deinit`.
    ///
    /// Bytes are pushed once each, in order; libpng decodes rows as their data arrives, so nothing is
    /// decoded twice. Not `Sendable`: one download, one task at a time.
    final class ProgressiveReader {
        /// What the reader has seen so far, copied out of C.
        struct Progress {
            /// The IHDR's values once every chunk before the first IDAT has been read.
            var header: Header?
            /// Rows written so far over all passes; a change means the pixels changed.
            var rowsWritten: UInt64
            /// Whether IEND has been read.
            var isComplete: Bool
            /// The Adam7 pass (0–6) of the last row written; 0 for a non-interlaced image.
            var pass: Int
            /// The image row the last row written went to.
            var lastRow: Int
        }

        /// The parts of the IHDR the decoder needs.
        struct Header {
            var width: Int
            var height: Int
            var hasAlpha: Bool
            var isInterlaced: Bool
        }

        private let reader: OpaquePointer

        /// Creates a reader enforcing `maximumPixelCount`; `nil` when memory runs out. A `lenient` reader uses chunks
        /// whose CRC is wrong.
        init?(maximumPixelCount: Int, lenient: Bool = false) {
            let limit = UInt64(max(0, maximumPixelCount))
            guard let reader = wik_png_progressive_create(limit, UInt32(PixelBuffer.maximumSide)) else { return nil }
            if lenient { wik_png_progressive_set_lenient(reader) }
            self.reader = reader
        }

        deinit {
            wik_png_progressive_destroy(reader)
        }

        /// Feeds the next bytes; throws `ImageCodingError` for corrupt data or an IHDR over the limit,
        /// and again on every later call once it has failed.
        func push(_ bytes: Data, maximumPixelCount: Int) throws {
            try bytes.withUnsafeBytes { raw in
                try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { message in
                    message.initialize(repeating: 0)
                    let status = wik_png_progressive_push(
                        reader, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count,
                        message.baseAddress, message.count
                    )
                    switch status {
                    case WIK_PNG_OK:
                        return
                    case WIK_PNG_TOO_LARGE:
                        var progress = wik_png_progress()
                        wik_png_progressive_get_progress(reader, &progress)
                        let width = Int(progress.header.width), height = Int(progress.header.height)
                        try ImageCodingError.checkDimensions(.png, width: width, height: height, limit: maximumPixelCount)
                        throw ImageCodingError.tooLarge(.png, width: width, height: height, limit: maximumPixelCount)
                    default:
                        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                        throw ImageCodingError(.corruptData, format: .png, "libpng, progressive read: \(text.isEmpty ? "unknown error" : text)")
                    }
                }
            }
        }

        /// The reader's state after the last push.
        var progress: Progress {
            var progress = wik_png_progress()
            wik_png_progressive_get_progress(reader, &progress)
            let header = progress.has_header == 0 ? nil : Header(
                width: Int(progress.header.width), height: Int(progress.header.height),
                hasAlpha: progress.header.has_alpha != 0, isInterlaced: progress.header.interlace_method != 0
            )
            return Progress(header: header, rowsWritten: progress.rows_written, isComplete: progress.complete != 0,
                            pass: Int(progress.pass), lastRow: Int(progress.last_row))
        }

        /// A copy of the output buffer (rows not yet received transparent), `nil` before the header.
        func pixels(hasAlpha: Bool) -> PixelBuffer? {
            var progress = wik_png_progress()
            wik_png_progressive_get_progress(reader, &progress)
            let width = Int(progress.header.width), height = Int(progress.header.height)
            guard progress.has_header != 0, let source = progress.pixels,
                  progress.pixels_size == width * height * PixelBuffer.bytesPerPixel else { return nil }
            return PixelBuffer(width: width, height: height, hasAlpha: hasAlpha) { (buffer: UnsafeMutableBufferPointer<UInt8>) in
                buffer.baseAddress?.update(from: source, count: min(buffer.count, progress.pixels_size))
            }
        }
    }
}
