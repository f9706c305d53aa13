import CWebImageShims
import Foundation
import WebImageCore

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
        }

        /// The parts of the IHDR the decoder needs.
        struct Header {
            var width: Int
            var height: Int
            var hasAlpha: Bool
            var isInterlaced: Bool
        }

        private let reader: OpaquePointer

        /// Creates a reader enforcing `maximumPixelCount`; `nil` when memory runs out.
        init?(maximumPixelCount: Int) {
            let limit = UInt64(max(0, maximumPixelCount))
            guard let reader = wik_png_progressive_create(limit, UInt32(PixelBuffer.maximumSide)) else { return nil }
            self.reader = reader
        }

        deinit {
            wik_png_progressive_destroy(reader)
        }

        /// Feeds the next bytes; throws ``ImageCodingError`` for corrupt data or an IHDR over the limit,
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
            return Progress(header: header, rowsWritten: progress.rows_written, isComplete: progress.complete != 0)
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
