import Foundation
import WebImageCore

/// Reads a bitmap's pixels into RGBA: 1/2/4/8-bit palettes, 16/32-bit masks (BI_BITFIELDS, 5-5-5 by
/// default), 24-bit BGR, 32-bit BGRA, RLE8 and RLE4, bottom-up or top-down; for icons, the 1-bit AND
/// mask. Every read is bounds-checked; the size is checked against the pixel limit before allocating.
enum BMPDecoder {
    /// The decoded pixels, and what a lenient decode let pass.
    struct Decoded {
        var pixels: PixelBuffer
        /// The pixel data cut short (rows or runs missing), when it was; `nil` for a whole bitmap.
        var issue: DecodingIssue?
    }

    /// Decodes the pixels that start at `pixelStart`; `andMask` applies an icon's transparency mask after them.
    ///
    /// Unless `options.strict`, pixel data cut short keeps the rows that are there, as browsers show them (a
    /// bottom-up bitmap's rows are stored bottom first, so those are the bottom rows), the rest transparent, and
    /// the issue says so; data with no whole row still throws.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, header: BMPHeader, pixelStart: Int, isIcon: Bool,
        options: ImageDecodingOptions, format: ImageFormat
    ) throws(ImageCodingError) -> Decoded {
        let width = header.width, height = header.height
        try ImageCodingError.checkDimensions(format, width: width, height: height, limit: options.maximumPixelCount)
        guard pixelStart >= 0, pixelStart <= bytes.count else {
            throw ImageCodingError(.truncatedData, format: format, "the pixel data starts past the end of the data")
        }
        let data = UnsafeRawBufferPointer(rebasing: bytes[pixelStart...])
        let stride = header.stride
        var storedRows = height
        var issue: DecodingIssue?
        if header.compression == .none || header.compression == .bitfields {
            // Check the data is all there before allocating: the stored rows are at least as large as the header says.
            if data.count / stride < height {
                storedRows = data.count / stride
                guard !options.strict, storedRows > 0 else {
                    throw ImageCodingError(.truncatedData, format: format, "the data ends inside the pixel rows")
                }
                issue = cutIssue(storedRows: storedRows, header: header)
            }
        }
        var usesAlpha = false
        var pixels = try PixelBuffer(width: width, height: height, hasAlpha: true) { output throws(ImageCodingError) in
            output.update(repeating: 0)
            switch header.compression {
            case .rle8, .rle4:
                if let cut = try decodeRLE(data, header: header, into: output, format: format, stopsAtCut: !options.strict) {
                    // The runs decoded before the cut stay (bottom-up: the bottom of the image), the rest transparent.
                    guard output.contains(where: { $0 != 0 }) else { throw ImageCodingError(.truncatedData, format: format, cut) }
                    issue = DecodingIssue(.truncated, firstDamagedRow: 0, detail: "\(cut); the runs before it are shown")
                }
                usesAlpha = true
            default:
                usesAlpha = decodeRows(data, header: header, storedRows: storedRows, into: output)
            }
        }
        if isIcon, !usesAlpha || header.bitsPerPixel < 32 {
            let andStart = stride * height
            pixels = applyANDMask(data, at: andStart, to: pixels)
        } else if !usesAlpha {
            pixels = PixelBuffer(width: width, height: height, hasAlpha: false, bytes: pixels.bytes)
        }
        return Decoded(pixels: pixels.withAlphaFlagFromContent(), issue: issue)
    }

    /// The issue for uncompressed pixel data that holds only `storedRows` whole rows: the first row, counted from
    /// the top, not in the file (row 0 for a bottom-up bitmap, whose stored rows are the bottom ones).
    private static func cutIssue(storedRows: Int, header: BMPHeader) -> DecodingIssue {
        DecodingIssue(
            .truncated, firstDamagedRow: header.topDown ? storedRows : 0,
            detail: "the pixel data ends after \(storedRows) of \(header.height) rows (the \(header.topDown ? "top" : "bottom") ones)"
        )
    }

    /// Uncompressed rows; returns whether the alpha channel carries information (some alpha byte non-zero).
    /// Otherwise every alpha is set to 255 (32-bit files whose fourth byte is padding).
    /// Only the first `storedRows` stored rows are read (the rest of `output` stays transparent).
    private static func decodeRows(
        _ data: UnsafeRawBufferPointer, header: BMPHeader, storedRows: Int, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        let width = header.width, height = header.height, stride = header.stride, bpp = header.bitsPerPixel
        let palette = header.palette
        let black = RGBA.black
        var anyAlpha = false
        let (red, green, blue, alpha) = header.masks
        for row in 0..<storedRows {
            let source = row * stride
            let target = (header.topDown ? row : height - 1 - row) * width * 4
            switch bpp {
            case 1, 2, 4, 8:
                let perByte = 8 / bpp, valueMask = (1 << bpp) - 1
                for x in 0..<width {
                    let byte = Int(data[source + x / perByte])
                    let index = (byte >> (8 - bpp - (x % perByte) * bpp)) & valueMask
                    let color = index < palette.count ? palette[index] : black
                    let o = target + x * 4
                    output[o] = color.red; output[o + 1] = color.green; output[o + 2] = color.blue; output[o + 3] = 255
                }
            case 24:
                for x in 0..<width {
                    let s = source + x * 3, o = target + x * 4
                    output[o] = data[s + 2]; output[o + 1] = data[s + 1]; output[o + 2] = data[s]; output[o + 3] = 255
                }
            default: // 16 and 32 bits, through masks
                let bytesPerPixel = bpp / 8
                for x in 0..<width {
                    let s = source + x * bytesPerPixel
                    let value = bytesPerPixel == 2
                        ? UInt32(data[s]) | UInt32(data[s + 1]) << 8
                        : UInt32(data[s]) | UInt32(data[s + 1]) << 8 | UInt32(data[s + 2]) << 16 | UInt32(data[s + 3]) << 24
                    let o = target + x * 4
                    output[o] = red?.value(value) ?? 0
                    output[o + 1] = green?.value(value) ?? 0
                    output[o + 2] = blue?.value(value) ?? 0
                    let a = alpha?.value(value) ?? 255
                    if alpha != nil, a != 0 { anyAlpha = true }
                    output[o + 3] = a
                }
            }
        }
        // An alpha channel that is zero everywhere is padding, as browsers read it: the image is opaque.
        if header.masks.alpha != nil, !anyAlpha {
            // Only the rows read: a bitmap cut short keeps its missing rows transparent.
            let firstRow = header.topDown ? 0 : height - storedRows
            var o = firstRow * width * 4 + 3
            let end = (firstRow + storedRows) * width * 4
            while o < end { output[o] = 255; o += 4 }
        }
        return header.masks.alpha != nil && anyAlpha
    }

    /// RLE8 and RLE4: runs and absolute runs of palette indexes, with end-of-line, delta and end-of-bitmap
    /// escapes. Pixels the runs skip stay transparent, as in browsers. Writes past a row's end or the last
    /// row are dropped; data that ends before the end-of-bitmap code is truncated: with `stopsAtCut` the runs
    /// before it are kept and the reason returned, otherwise it throws. Returns `nil` at the end-of-bitmap code.
    private static func decodeRLE(
        _ data: UnsafeRawBufferPointer, header: BMPHeader, into output: UnsafeMutableBufferPointer<UInt8>, format: ImageFormat,
        stopsAtCut: Bool
    ) throws(ImageCodingError) -> String? {
        func cut(_ reason: String) throws(ImageCodingError) -> String {
            guard stopsAtCut else { throw ImageCodingError(.truncatedData, format: format, reason) }
            return reason
        }
        let width = header.width, height = header.height, palette = header.palette
        let isRLE4 = header.compression == .rle4
        var x = 0, y = 0, offset = 0
        func put(_ index: Int) {
            guard x < width, y < height else { return }
            let color = index < palette.count ? palette[index] : RGBA.black
            let o = ((height - 1 - y) * width + x) * 4
            output[o] = color.red; output[o + 1] = color.green; output[o + 2] = color.blue; output[o + 3] = 255
        }
        while true {
            guard data.count - offset >= 2 else { return try cut("the run-length data ends before its end-of-bitmap code") }
            let count = Int(data[offset]), value = Int(data[offset + 1])
            offset += 2
            if count > 0 {
                // Only the pixels inside the image are visited: a hostile file cannot make runs cost more than its pixels.
                let visible = y < height ? max(0, min(count, width - x)) : 0
                for i in 0..<visible {
                    put(isRLE4 ? (i % 2 == 0 ? value >> 4 : value & 0x0F) : value)
                    x += 1
                }
                x = min(x + count - visible, width)
                continue
            }
            switch value {
            case 0: x = 0; y = min(y + 1, height) // end of line
            case 1: return nil // end of bitmap
            case 2:
                guard data.count - offset >= 2 else { return try cut("the run-length data ends inside a delta") }
                x = min(x + Int(data[offset]), width); y = min(y + Int(data[offset + 1]), height)
                offset += 2
            default: // absolute run of `value` pixels, padded to 16 bits
                let byteCount = isRLE4 ? (value + 1) / 2 : value
                guard data.count - offset >= byteCount else { return try cut("the run-length data ends inside an absolute run") }
                let visible = y < height ? max(0, min(value, width - x)) : 0
                for i in 0..<visible {
                    let byte = Int(data[offset + (isRLE4 ? i / 2 : i)])
                    put(isRLE4 ? (i % 2 == 0 ? byte >> 4 : byte & 0x0F) : byte)
                    x += 1
                }
                x = min(x + value - visible, width)
                offset += byteCount + (byteCount & 1)
            }
        }
    }

    /// An icon's AND mask (1 bit a pixel, rows padded to 4 bytes, bottom-up like the bitmap): a set bit
    /// is transparent. An icon whose mask is missing stays opaque.
    private static func applyANDMask(_ data: UnsafeRawBufferPointer, at start: Int, to pixels: PixelBuffer) -> PixelBuffer {
        let width = pixels.width, height = pixels.height
        let stride = (width + 31) / 32 * 4
        guard start >= 0, data.count - start >= stride * height else { return pixels }
        var bytes = pixels.bytes
        for row in 0..<height {
            let source = start + row * stride
            let target = (height - 1 - row) * width * 4
            for x in 0..<width where data[source + x / 8] & (0x80 >> UInt8(x % 8)) != 0 {
                bytes[target + x * 4 + 3] = 0
            }
        }
        return PixelBuffer(width: width, height: height, hasAlpha: true, bytes: bytes)
    }
}
