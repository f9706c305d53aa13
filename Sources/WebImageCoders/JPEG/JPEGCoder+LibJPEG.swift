import CWebImageShims
import Foundation

/// The Swift side of the libjpeg-turbo glue in `wik_jpeg.c`: the only file of the JPEG coder that
/// touches C. The C functions own every libjpeg call and jump buffer; here we pass buffers in and
/// turn status codes into `ImageCodingError`.
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

    /// Decodes into `output`, which holds `size` RGBA pixels without row padding. With `strict`, a premature
    /// end fails; otherwise damaged data decodes as libjpeg fills it in and comes back as the issue.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, scale: JPEGCoder.DCTScale, into output: UnsafeMutableBufferPointer<UInt8>,
        size: PixelSize, maximumWorkingMemory: Int, strict: Bool
    ) throws(ImageCodingError) -> DecodingIssue? {
        var damage = wik_jpeg_damage()
        let (status, message) = withDamageRecord(&damage, strict: strict) { record in
            withMessageBuffer { err, length in
                wik_jpeg_decode_rgba(
                    bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32(scale.rawValue),
                    output.baseAddress, size.width * PixelBuffer.bytesPerPixel, UInt32(size.width), UInt32(size.height),
                    maximumWorkingMemory, record, err, length
                )
            }
        }
        try check(status, message)
        return issue(from: damage)
    }

    /// Decodes a CMYK or YCCK file into its CMYK samples as stored, 4 bytes a pixel, into `output`;
    /// `strict` and the issue returned as for ``decode(_:scale:into:size:maximumWorkingMemory:strict:)``.
    static func decodeCMYK(
        _ bytes: UnsafeRawBufferPointer, scale: JPEGCoder.DCTScale, into output: UnsafeMutableRawBufferPointer,
        size: PixelSize, maximumWorkingMemory: Int, strict: Bool
    ) throws(ImageCodingError) -> DecodingIssue? {
        var damage = wik_jpeg_damage()
        let (status, message) = withDamageRecord(&damage, strict: strict) { record in
            withMessageBuffer { err, length in
                wik_jpeg_decode_cmyk(
                    bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32(scale.rawValue),
                    output.bindMemory(to: UInt8.self).baseAddress, UInt32(size.width), UInt32(size.height),
                    maximumWorkingMemory, record, err, length
                )
            }
        }
        try check(status, message)
        return issue(from: damage)
    }

    /// Calls `body` with a pointer to `damage` (a lenient decode records into it) or with NULL when `strict`.
    private static func withDamageRecord<Result>(
        _ damage: inout wik_jpeg_damage, strict: Bool, _ body: (UnsafeMutablePointer<wik_jpeg_damage>?) -> Result
    ) -> Result {
        if strict { return body(nil) }
        return withUnsafeMutablePointer(to: &damage) { body($0) }
    }

    /// The issue a lenient decode recorded, or nil when it found no damage.
    static func issue(from damage: wik_jpeg_damage) -> DecodingIssue? {
        guard damage.found != 0 else { return nil }
        let detail = withUnsafeBytes(of: damage.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return DecodingIssue(
            damage.truncated != 0 ? .truncated : .corruptData, firstDamagedRow: damage.row >= 0 ? Int(damage.row) : nil,
            detail: detail.isEmpty ? "damaged JPEG data" : detail
        )
    }

    /// Encodes the RGBA pixels (alpha ignored), progressive when asked, with an EXIF orientation when it is not `.up`.
    static func encode(
        _ pixels: PixelBuffer, quality: Int, progressive: Bool, orientation: ImageOrientation
    ) throws(ImageCodingError) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize = 0
        let (status, message) = pixels.withUnsafeBytes { raw in
            withMessageBuffer { err, length in
                wik_jpeg_encode_rgba(
                    raw.bindMemory(to: UInt8.self).baseAddress, UInt32(clamping: pixels.width), UInt32(clamping: pixels.height),
                    pixels.bytesPerRow, Int32(quality), progressive ? 1 : 0, Int32(orientation.exifValue), &output, &outputSize, err, length
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

    /// One download's incremental libjpeg decoder (`wik_jpeg_progressive`), freed with this object.
    ///
    /// Each call is handed all the bytes received so far; the C side keeps its stream position, so
    /// every byte is parsed and entropy-decoded once in total. Not thread-safe: one caller at a time.
    final class Incremental {
        /// What a call produced.
        enum Progress {
            /// No row is decodable yet.
            case needMoreData
            /// The end of the image was read: decode the whole data one-shot for the final image.
            case complete
            /// Rows `0..<validRows` hold pixels, the rest are transparent; `pixels` is nil when
            /// nothing changed since the previous call.
            case partial(pixels: PixelBuffer?, validRows: Int)
        }

        private let handle: OpaquePointer

        /// Creates the decoder; `maximumWorkingMemory` caps libjpeg's working memory in bytes.
        init(maximumWorkingMemory: Int) throws(ImageCodingError) {
            guard let handle = wik_jpeg_progressive_create(maximumWorkingMemory) else {
                throw ImageCodingError(.imageTooLarge, format: .jpeg, "cannot allocate a decoder")
            }
            self.handle = handle
        }

        deinit { wik_jpeg_progressive_free(handle) }

        /// The header, or nil while the bytes so far do not hold all of it.
        func header(of bytes: UnsafeRawBufferPointer) throws(ImageCodingError) -> JPEGCoder.Info? {
            var info = wik_jpeg_info()
            let (status, message) = withMessageBuffer { err, length in
                wik_jpeg_progressive_read_header(handle, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, &info, err, length)
            }
            if UInt32(bitPattern: status) == WIK_JPEG_NEED_MORE_DATA.rawValue { return nil }
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

        /// Consumes the new bytes (call only once ``header(of:)`` returned a header) and renders the
        /// best image they allow at `scale` (used by the first call).
        func decode(_ bytes: UnsafeRawBufferPointer, scale: JPEGCoder.DCTScale) throws(ImageCodingError) -> Progress {
            var partial = wik_jpeg_partial()
            let (status, message) = withMessageBuffer { err, length in
                wik_jpeg_progressive_decode(
                    handle, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32(scale.rawValue), &partial, err, length
                )
            }
            switch UInt32(bitPattern: status) {
            case WIK_JPEG_OK.rawValue: return .complete
            case WIK_JPEG_NEED_MORE_DATA.rawValue: return .needMoreData
            case WIK_JPEG_PARTIAL.rawValue: break
            default: try check(status, message)
            }
            let width = Int(partial.width), height = Int(partial.height), validRows = Int(partial.valid_rows)
            guard partial.updated != 0, let source = partial.pixels else { return .partial(pixels: nil, validRows: validRows) }
            let byteCount = width * height * PixelBuffer.bytesPerPixel
            let pixels = PixelBuffer(width: width, height: height, hasAlpha: validRows < height) { output in
                output.baseAddress?.update(from: source, count: byteCount)
            }
            return .partial(pixels: pixels, validRows: validRows)
        }
    }

    /// One band-by-band decode at `scaleNumerator`/8 (`wik_jpeg_stream`), freed with this object.
    ///
    /// The bytes it was opened on must stay valid until it is released. Not thread-safe.
    final class Stream {
        /// The size the rows come out at.
        let outputSize: PixelSize
        private let handle: OpaquePointer

        /// Reads the header and starts decompressing at `scaleNumerator`/8 (1–16); `vectorIDCT: false` keeps
        /// libjpeg's own scaled IDCTs where ours would replace them (for comparing the two). With `strict: false`,
        /// damaged data decodes as libjpeg fills it in and ``issue`` tells what was seen.
        init(
            _ bytes: UnsafeRawBufferPointer, scaleNumerator: Int, maximumWorkingMemory: Int, vectorIDCT: Bool = true,
            strict: Bool = true
        ) throws(ImageCodingError) {
            var width: UInt32 = 0, height: UInt32 = 0, status: Int32 = 0
            var opened: OpaquePointer?
            let (_, message) = withMessageBuffer { err, length in
                opened = wik_jpeg_stream_open(
                    bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, Int32(clamping: scaleNumerator),
                    maximumWorkingMemory, vectorIDCT ? 1 : 0, strict ? 0 : 1, &width, &height, &status, err, length
                )
                return status
            }
            guard let opened else {
                try check(status == WIK_JPEG_OK.rawValue ? Int32(WIK_JPEG_CORRUPT.rawValue) : status, message)
                throw ImageCodingError(.corruptData, format: .jpeg, message)
            }
            handle = opened
            outputSize = PixelSize(width: Int(width), height: Int(height))
        }

        deinit { wik_jpeg_stream_free(handle) }

        /// The damage a lenient stream has let pass so far, or nil.
        var issue: DecodingIssue? {
            wik_jpeg_stream_damage(handle).map { LibJPEG.issue(from: $0.pointee) } ?? nil
        }

        /// Decodes up to `maximumRows` RGBA rows (stride `4 × outputSize.width`) into `buffer`; returns how many.
        func read(into buffer: UnsafeMutableBufferPointer<UInt8>, maximumRows: Int) throws(ImageCodingError) -> Int {
            let stride = outputSize.width * PixelBuffer.bytesPerPixel
            let rows = min(maximumRows, buffer.count / max(stride, 1))
            var read: UInt32 = 0
            let (status, message) = withMessageBuffer { err, length in
                wik_jpeg_stream_read(handle, buffer.baseAddress, stride, UInt32(clamping: rows), &read, err, length)
            }
            try check(status, message)
            return Int(read)
        }

        /// Reads on to the end of the image, so a file cut after its last row still fails as truncated.
        func finish() throws(ImageCodingError) {
            let (status, message) = withMessageBuffer { err, length in wik_jpeg_stream_finish(handle, err, length) }
            try check(status, message)
        }
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
