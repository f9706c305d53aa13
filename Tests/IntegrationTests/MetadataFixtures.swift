import Foundation

/// Builds the metadata the info tests read: ICC profiles with a `desc` tag, an EXIF block, JPEG segments,
/// PNG chunks (with their CRC) and zlib streams of stored blocks.
enum MetadataFixtures {
    /// A minimal ICC profile whose `desc` tag says `name` (v2 `desc` type, or v4 `mluc`).
    static func profile(named name: String, v4: Bool = false) -> [UInt8] {
        var tag: [UInt8]
        if v4 {
            let utf16 = name.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            tag = Array("mluc".utf8) + [0, 0, 0, 0] + be32(1) + be32(12) + Array("enUS".utf8) + be32(utf16.count) + be32(28) + utf16
        } else {
            tag = Array("desc".utf8) + [0, 0, 0, 0] + be32(name.utf8.count + 1) + Array(name.utf8) + [0]
        }
        var header = [UInt8](repeating: 0, count: 128)
        header[36..<40] = ArraySlice("acsp".utf8)
        let table = be32(1) + Array("desc".utf8) + be32(144) + be32(tag.count)
        let profile = header + table + tag
        return be32(profile.count) + profile.dropFirst(4)
    }

    /// A big-endian TIFF block: Make `Canon`, Model `Canon EOS R5`, DateTime `2024:05:01 14:03:22`.
    static let exif: [UInt8] = {
        let strings = ["Canon", "Canon EOS R5", "2024:05:01 14:03:22"].map { Array($0.utf8) + [0] }
        let tags = [0x010F, 0x0110, 0x0132]
        var data = Array("MM".utf8) + [0, 42] + be32(8) + [0, UInt8(tags.count)]
        var valueOffset = 8 + 2 + tags.count * 12 + 4
        for (tag, string) in zip(tags, strings) {
            data += [UInt8(tag >> 8), UInt8(tag & 0xFF), 0, 2] + be32(string.count) + be32(valueOffset)
            valueOffset += string.count
        }
        return data + be32(0) + strings.flatMap { $0 }
    }()

    /// A JPEG marker segment.
    static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }

    /// `jpeg` with `segments` right after its SOI marker.
    static func jpeg(_ jpeg: Data, inserting segments: [[UInt8]]) -> Data {
        Data(jpeg.prefix(2) + segments.flatMap { $0 } + jpeg.dropFirst(2))
    }

    /// A PNG chunk with its CRC.
    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return be32(body.count) + typed + be32(Int(crc32(typed)))
    }

    /// `png` with `chunk` right after its IHDR chunk (8 + 25 bytes in).
    static func png(_ png: Data, inserting chunk: [UInt8]) -> Data {
        Data(png.prefix(33) + chunk + png.dropFirst(33))
    }

    /// `bytes` as a zlib stream of one stored block (with its Adler-32).
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var a = 1, b = 0
        for byte in bytes { a = (a + Int(byte)) % 65521; b = (b + a) % 65521 }
        let length = bytes.count
        return [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            + bytes + be32(b << 16 | a)
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension Data {
    /// Bytes from hexadecimal text (whitespace ignored); `nil` when it is not hexadecimal.
    init?(hex: String) {
        let digits = hex.filter { !$0.isWhitespace }
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
