import Foundation
import WebImageCore

/// A device-independent bitmap's header (every variant: OS/2 1.x core, OS/2 2.x, BITMAPINFOHEADER,
/// V2/V3 with masks, V4 and V5), parsed and checked before any pixel is read.
struct BMPHeader {
    /// How the pixel data is stored.
    enum Compression: Equatable {
        case none, rle8, rle4, bitfields
        /// A whole JPEG or PNG file as the pixel data (BI_JPEG, BI_PNG).
        case jpeg, png
    }

    /// One channel's bit mask, with the shift and width that turn it into 0–255.
    struct Mask {
        let mask: UInt32
        let shift: UInt32
        let bits: UInt32

        init?(_ mask: UInt32) {
            guard mask != 0 else { return nil }
            let shift = UInt32(mask.trailingZeroBitCount)
            let shifted = mask >> shift
            // The set bits must be contiguous: shifted down, the mask is 2ⁿ − 1.
            guard shifted & (shifted &+ 1) == 0 else { return nil }
            let bits = UInt32(32 - shifted.leadingZeroBitCount)
            self.mask = mask
            self.shift = shift
            self.bits = bits
        }

        /// The channel of `pixel` scaled to 8 bits.
        @inline(__always) func value(_ pixel: UInt32) -> UInt8 {
            let raw = (pixel & mask) >> shift
            if bits >= 8 { return UInt8(truncatingIfNeeded: raw >> (bits - 8)) }
            let maximum = (UInt32(1) << bits) - 1
            return UInt8((raw * 255 + maximum / 2) / maximum)
        }
    }

    var width: Int
    /// The height of the image (for an icon, half the DIB's height: the rest is the AND mask).
    var height: Int
    var topDown: Bool
    var bitsPerPixel: Int
    var compression: Compression
    /// Red, green, blue and alpha masks for 16- and 32-bit pixels.
    var masks: (red: Mask?, green: Mask?, blue: Mask?, alpha: Mask?)
    /// The colour table, RGBA, for 1- to 8-bit pixels.
    var palette: [RGBA]
    /// Where the colour table ends: the pixel data of an icon's bitmap starts there.
    var paletteEnd: Int
    /// The size the header gives for the pixel data (0 for uncompressed bitmaps, where it may be omitted).
    var imageSize: Int
    /// An ICC profile embedded by a V5 header (`PROFILE_EMBEDDED`), as an offset and length from the header's start.
    var profileRange: Range<Int>?

    /// Parses the header starting at `start`; `isIcon` halves the height (XOR bitmap plus AND mask).
    init(_ bytes: UnsafeRawBufferPointer, at start: Int, isIcon: Bool, format: ImageFormat) throws(ImageCodingError) {
        func u16(_ offset: Int) -> Int { Int(bytes[start + offset]) | Int(bytes[start + offset + 1]) << 8 }
        func u32(_ offset: Int) -> UInt32 {
            UInt32(bytes[start + offset]) | UInt32(bytes[start + offset + 1]) << 8
                | UInt32(bytes[start + offset + 2]) << 16 | UInt32(bytes[start + offset + 3]) << 24
        }
        guard bytes.count - start >= 4 else { throw ImageCodingError(.truncatedData, format: format, "the data ends inside the bitmap header") }
        let size = Int(u32(0))
        guard [12, 16, 40, 52, 56, 64, 108, 124].contains(size) else {
            throw ImageCodingError(.corruptData, format: format, "unknown bitmap header size \(size)")
        }
        guard bytes.count - start >= size else { throw ImageCodingError(.truncatedData, format: format, "the data ends inside the bitmap header") }
        var rawHeight: Int
        imageSize = 0
        var compressionCode: UInt32 = 0
        var colorsUsed = 0
        if size == 12 {
            width = u16(4)
            rawHeight = Int(Int16(truncatingIfNeeded: u16(6)))
            bitsPerPixel = u16(10)
        } else {
            width = Int(Int32(bitPattern: u32(4)))
            rawHeight = Int(Int32(bitPattern: u32(8)))
            bitsPerPixel = u16(14)
            if size >= 20 { compressionCode = u32(16) }
            if size >= 24 { imageSize = Int(u32(20)) }
            if size >= 36 { colorsUsed = Int(u32(32)) }
        }
        topDown = rawHeight < 0
        if isIcon { rawHeight /= 2 }
        height = abs(rawHeight)
        guard width > 0, height > 0 else {
            throw ImageCodingError(.invalidDimensions, format: format, "invalid bitmap dimensions \(width)×\(rawHeight)")
        }
        // OS/2 2.x headers number their compressions differently (3 = Huffman 1D, 4 = RLE24): neither is supported.
        let isOS2 = size == 16 || size == 64
        switch (compressionCode, bitsPerPixel) {
        case (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (0, 24), (0, 32): compression = .none
        case (1, 8): compression = .rle8
        case (2, 4): compression = .rle4
        case (3, 16) where !isOS2, (3, 32) where !isOS2, (6, 16) where !isOS2, (6, 32) where !isOS2: compression = .bitfields
        case (4, _) where !isOS2: compression = .jpeg
        case (5, _) where !isOS2: compression = .png
        default:
            throw ImageCodingError(
                .unsupportedFormat, format: format, "compression \(compressionCode) with \(bitsPerPixel) bits per pixel is not supported"
            )
        }
        guard !(topDown && (compression == .rle4 || compression == .rle8)) else {
            throw ImageCodingError(.corruptData, format: format, "a run-length-encoded bitmap cannot be top-down")
        }
        // Masks: in the header from V2 (52) up, or in 12 (16 with alpha) bytes after a 40-byte header.
        var maskOffset = size
        masks = (nil, nil, nil, nil)
        if compression == .bitfields {
            let maskCount = compressionCode == 6 || size >= 56 ? 4 : 3
            let maskStart = size >= 52 ? 40 : size
            guard bytes.count - start >= maskStart + maskCount * 4 else {
                throw ImageCodingError(.truncatedData, format: format, "the data ends inside the colour masks")
            }
            masks = (Mask(u32(maskStart)), Mask(u32(maskStart + 4)), Mask(u32(maskStart + 8)),
                     maskCount == 4 ? Mask(u32(maskStart + 12)) : nil)
            if size < 52 { maskOffset = size + maskCount * 4 }
        } else if bitsPerPixel == 16 {
            masks = (Mask(0x7C00), Mask(0x03E0), Mask(0x001F), nil)
        } else if bitsPerPixel == 32 {
            // The fourth byte of BI_RGB is "reserved", but icons and many writers put alpha there (see BMPDecoder).
            let alphaMask: UInt32 = size >= 56 && u32(52) != 0 ? u32(52) : 0xFF00_0000
            masks = (Mask(0x00FF_0000), Mask(0x0000_FF00), Mask(0x0000_00FF), Mask(alphaMask))
        }
        // The colour table.
        palette = []
        let entrySize = size == 12 ? 3 : 4
        if bitsPerPixel <= 8 {
            let maximum = 1 << bitsPerPixel
            let count = colorsUsed == 0 || colorsUsed > maximum ? maximum : colorsUsed
            let available = max(0, (bytes.count - start - maskOffset) / entrySize)
            // A table cut short is a truncation, except in icons whose headers overstate it (rare): be strict.
            guard available >= count else { throw ImageCodingError(.truncatedData, format: format, "the data ends inside the colour table") }
            palette.reserveCapacity(count)
            for index in 0..<count {
                let entry = start + maskOffset + index * entrySize
                palette.append(RGBA(red: bytes[entry + 2], green: bytes[entry + 1], blue: bytes[entry]))
            }
            paletteEnd = start + maskOffset + count * entrySize
        } else {
            // A table may follow anyway (colorsUsed as an optimisation hint): skip it.
            paletteEnd = start + maskOffset + (size == 12 ? 0 : min(colorsUsed, 256) * entrySize)
        }
        // V5 (124): CSType 'MBED' with profile data and size at 112 and 116, from the header's start.
        profileRange = nil
        if size == 124, u32(56) == 0x4D42_4544 {
            let offset = Int(u32(112)), length = Int(u32(116))
            if length > 0, offset <= bytes.count - start, length <= bytes.count - start - offset {
                profileRange = (start + offset)..<(start + offset + length)
            }
        }
    }

    /// Bytes in one stored row (rows are padded to 4 bytes).
    var stride: Int { (width * bitsPerPixel + 31) / 32 * 4 }
}
