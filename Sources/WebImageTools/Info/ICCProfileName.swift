import Foundation

/// The description of an ICC profile (its `desc` tag), such as `sRGB IEC61966-2.1` or `Display P3`: what
/// `webimage info` prints as the colour profile. No colour management, only the name.
enum ICCProfileName {
    /// The profile's description; `nil` when the profile has no readable `desc` tag.
    static func description(ofProfile profile: [UInt8]) -> String? {
        let reader = ByteReader(profile)
        guard let tagCount = reader.bigEndian(128, 4), tagCount < 1000 else { return nil }
        for index in 0..<tagCount {
            let entry = 132 + index * 12
            guard reader.matches("desc", at: entry), let offset = reader.bigEndian(entry + 4, 4),
                  let size = reader.bigEndian(entry + 8, 4) else { continue }
            return text(reader, at: offset, size: size)
        }
        return nil
    }

    /// A `textDescriptionType` (ICC v2: ASCII) or `multiLocalizedUnicodeType` (ICC v4: UTF-16, first record).
    private static func text(_ reader: ByteReader, at offset: Int, size: Int) -> String? {
        if reader.matches("desc", at: offset), let length = reader.bigEndian(offset + 8, 4),
           let ascii = reader.slice(offset + 12, min(length, max(0, size - 12))) {
            return clean(String(decoding: ascii.prefix { $0 != 0 }, as: UTF8.self))
        }
        if reader.matches("mluc", at: offset), let records = reader.bigEndian(offset + 8, 4), records > 0,
           let length = reader.bigEndian(offset + 20, 4), let start = reader.bigEndian(offset + 24, 4),
           let utf16 = reader.slice(offset + start, length) {
            let units = stride(from: 0, to: utf16.count - 1, by: 2).map { UInt16(utf16[$0]) << 8 | UInt16(utf16[$0 + 1]) }
            return clean(String(decoding: units.prefix { $0 != 0 }, as: UTF16.self))
        }
        return nil
    }

    private static func clean(_ text: String) -> String? {
        let trimmed = String(text.filter { !$0.isNewline }.prefix(120)).trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }
}
