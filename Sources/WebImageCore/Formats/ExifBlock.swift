package import Foundation

/// Edits of a TIFF-structured EXIF block that encoders and the image server need: the orientation tag set to
/// match the pixels, and a block reduced to its copyright fields.
///
/// Every read is bounds-checked; a malformed block gives `nil`.
package enum ExifBlock {
    /// The IFD0 tags kept by ``copyrightOnly(_:)``: Artist (0x013B) and Copyright (0x8298), as imgproxy keeps.
    package static let copyrightTags: [UInt16] = [0x013B, 0x8298]

    /// `exif` with its orientation tag (0x0112) set to `orientation`, or `nil` when the block is malformed or
    /// has no orientation tag.
    package static func settingOrientation(_ exif: Data, to orientation: ImageOrientation) -> Data? {
        var bytes = [UInt8](exif)
        guard let layout = Layout(bytes), let entry = layout.entry(tag: 0x0112, in: bytes),
              layout.uint16(bytes, entry + 2) == 3 else { return nil }
        let value = UInt16(orientation.rawValue)
        if layout.bigEndian {
            (bytes[entry + 8], bytes[entry + 9]) = (UInt8(value >> 8), UInt8(value & 0xFF))
        } else {
            (bytes[entry + 8], bytes[entry + 9]) = (UInt8(value & 0xFF), UInt8(value >> 8))
        }
        return Data(bytes)
    }

    /// A new little-endian block holding only the IFD0 Artist and Copyright strings of `exif`, or `nil` when it
    /// has neither.
    package static func copyrightOnly(_ exif: Data) -> Data? {
        let bytes = [UInt8](exif)
        guard let layout = Layout(bytes) else { return nil }
        var fields: [(tag: UInt16, value: [UInt8])] = []
        for tag in copyrightTags {
            guard let entry = layout.entry(tag: tag, in: bytes), layout.uint16(bytes, entry + 2) == 2,
                  let count = layout.uint32(bytes, entry + 4), count > 0 else { continue }
            let start = count <= 4 ? entry + 8 : layout.uint32(bytes, entry + 8).map { layout.base + $0 } ?? -1
            guard start >= 0, count <= bytes.count - start else { continue }
            fields.append((tag, Array(bytes[start..<(start + count)])))
        }
        guard !fields.isEmpty else { return nil }
        // Header (8), entry count (2), entries (12 each), next-IFD offset (4), then the strings.
        var output: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        output += le16(UInt16(fields.count))
        var dataOffset = 8 + 2 + 12 * fields.count + 4
        var strings: [UInt8] = []
        for field in fields {
            output += le16(field.tag) + le16(2) + le32(UInt32(field.value.count))
            if field.value.count <= 4 {
                output += field.value + [UInt8](repeating: 0, count: 4 - field.value.count)
            } else {
                output += le32(UInt32(dataOffset))
                strings += field.value
                dataOffset += field.value.count
            }
        }
        output += le32(0)
        return Data(output + strings)
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// Where a block's TIFF header is, its byte order and its first IFD.
    private struct Layout {
        /// Where the TIFF header starts (past an `Exif\0\0` prefix some writers keep).
        let base: Int
        let bigEndian: Bool
        /// The first IFD's offset in the bytes.
        private(set) var ifd: Int

        init?(_ bytes: [UInt8]) {
            let base = bytes.starts(with: ImageMetadata.exifPrefix) ? ImageMetadata.exifPrefix.count : 0
            guard bytes.count >= base + 8 else { return nil }
            switch (bytes[base], bytes[base + 1]) {
            case (0x49, 0x49): bigEndian = false
            case (0x4D, 0x4D): bigEndian = true
            default: return nil
            }
            self.base = base
            ifd = base
            guard let offset = uint32(bytes, base + 4), offset <= bytes.count - base else { return nil }
            ifd = base + offset
        }

        /// The offset of the IFD0 entry for `tag`, if there is one.
        func entry(tag: UInt16, in bytes: [UInt8]) -> Int? {
            guard let count = uint16(bytes, ifd) else { return nil }
            for index in 0..<Int(count) {
                let entry = ifd + 2 + 12 * index
                guard entry + 12 <= bytes.count, let found = uint16(bytes, entry) else { return nil }
                if found == tag { return entry }
            }
            return nil
        }

        func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            let (a, b) = (UInt16(bytes[offset]), UInt16(bytes[offset + 1]))
            return bigEndian ? a << 8 | b : b << 8 | a
        }

        func uint32(_ bytes: [UInt8], _ offset: Int) -> Int? {
            guard let first = uint16(bytes, offset), let second = uint16(bytes, offset + 2) else { return nil }
            return bigEndian ? Int(first) << 16 | Int(second) : Int(second) << 16 | Int(first)
        }
    }
}
