import Foundation

extension ImageMetadata {
    /// The `Exif` item and the XMP item (`mime`, `application/rdf+xml`) of an AVIF or HEIC file's `meta` box,
    /// located through `iinf` and `iloc` (file offsets only: construction method 0).
    static func isoBMFF(_ bytes: Data) -> ImageMetadata {
        guard let meta = BoxReader.boxes(in: bytes, 0..<bytes.count).first(where: { $0.type == "meta" }),
              meta.body.count >= 4 else { return ImageMetadata() }
        let children = BoxReader.boxes(in: bytes, (meta.body.lowerBound + 4)..<meta.body.upperBound)
        guard let iinf = children.first(where: { $0.type == "iinf" }),
              let iloc = children.first(where: { $0.type == "iloc" }) else { return ImageMetadata() }
        let items = itemTypes(bytes, iinf.body)
        let locations = itemLocations(bytes, iloc.body)
        var exif: Data?, xmp: Data?
        for (id, type) in items where type == "Exif" || type == "mime/application/rdf+xml" {
            guard let range = locations[id] else { continue }
            let payload = Data(bytes[range]) // a copy of the metadata item only, indexed from 0
            if type == "Exif", exif == nil, payload.count > 4 {
                // A 4-byte offset from the end of that field to the TIFF header (past any `Exif\0\0`).
                let skip = payload[0..<4].reduce(0) { $0 << 8 | Int($1) }
                if skip >= 0, skip < payload.count - 4 { exif = Data(payload[(4 + skip)...]) }
            } else if type == "mime/application/rdf+xml", xmp == nil {
                xmp = payload
            }
        }
        return ImageMetadata(exif: exif, xmp: xmp)
    }

    /// Item IDs and their types (`mime/<content type>` for MIME items), from an `iinf` box's `infe` entries.
    private static func itemTypes(_ bytes: Data, _ iinf: Range<Int>) -> [(Int, String)] {
        guard iinf.count >= 6 else { return [] }
        let start = iinf.lowerBound + 4 + (bytes[iinf.lowerBound] == 0 ? 2 : 4) // full box header, entry count
        guard start <= iinf.upperBound else { return [] }
        var result: [(Int, String)] = []
        for infe in BoxReader.boxes(in: bytes, start..<iinf.upperBound) where infe.type == "infe" {
            var reader = BoxReader.Cursor(bytes: bytes, offset: infe.body.lowerBound, end: infe.body.upperBound)
            guard let version = reader.uint(1), version >= 2, reader.uint(3) != nil,
                  let id = reader.uint(version == 2 ? 2 : 4), reader.uint(2) != nil,
                  let type = reader.fourCC(), reader.cString() != nil else { continue }
            if type == "mime", let contentType = reader.cString() {
                result.append((id, "mime/" + contentType))
            } else {
                result.append((id, type))
            }
        }
        return result
    }

    /// Where each item's bytes are in the file, from an `iloc` box; items with several extents are joined only
    /// when the extents are contiguous, and items built another way than from file offsets are skipped.
    private static func itemLocations(_ bytes: Data, _ iloc: Range<Int>) -> [Int: Range<Int>] {
        var reader = BoxReader.Cursor(bytes: bytes, offset: iloc.lowerBound, end: iloc.upperBound)
        guard let version = reader.uint(1), version <= 2, reader.uint(3) != nil,
              let sizes = reader.uint(1), let more = reader.uint(1),
              let count = reader.uint(version < 2 ? 2 : 4) else { return [:] }
        let offsetSize = sizes >> 4, lengthSize = sizes & 15, baseSize = more >> 4
        let indexSize = version == 0 ? 0 : more & 15
        var result: [Int: Range<Int>] = [:]
        for _ in 0..<min(count, 4096) {
            guard let id = reader.uint(version < 2 ? 2 : 4) else { break }
            var method = 0
            if version > 0 { guard let value = reader.uint(2) else { break }; method = value & 15 }
            guard reader.uint(2) != nil, let base = reader.uint(baseSize), let extents = reader.uint(2) else { break }
            var range: Range<Int>?
            var valid = method == 0
            for _ in 0..<extents {
                guard reader.uint(indexSize) != nil, let offset = reader.uint(offsetSize),
                      let length = reader.uint(lengthSize) else { return result }
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard !overflow, start >= 0, length > 0, start <= bytes.count, length <= bytes.count - start else { valid = false; continue }
                if let current = range {
                    if current.upperBound == start { range = current.lowerBound..<(start + length) } else { valid = false }
                } else {
                    range = start..<(start + length)
                }
            }
            if valid, let range { result[id] = range }
        }
        return result
    }
}

/// Reads ISO base media file format boxes and big-endian fields with bounds checks.
enum BoxReader {
    /// One box: its four-character type and where its body is.
    struct Box {
        var type: String
        var body: Range<Int>
    }

    /// The boxes one after another in `range` (a 64-bit size or a size of 0, "to the end", included).
    static func boxes(in bytes: Data, _ range: Range<Int>) -> [Box] {
        var result: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var cursor = Cursor(bytes: bytes, offset: offset, end: range.upperBound)
            guard var size = cursor.uint(4), let type = cursor.fourCC() else { break }
            var header = 8
            if size == 1 {
                guard let large = cursor.uint(8) else { break }
                size = large
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { break }
            result.append(Box(type: type, body: (offset + header)..<(offset + size)))
            offset += size
        }
        return result
    }

    /// A read position in a byte range.
    struct Cursor {
        let bytes: Data
        var offset: Int
        let end: Int

        /// A big-endian unsigned field of `count` bytes (0 reads nothing and gives 0); nil past the end.
        mutating func uint(_ count: Int) -> Int? {
            guard count >= 0, count <= 8, offset + count <= end else { return nil }
            let value = bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
            offset += count
            return count == 8 && value < 0 ? nil : value
        }

        /// Four ASCII characters.
        mutating func fourCC() -> String? {
            guard offset + 4 <= end else { return nil }
            defer { offset += 4 }
            return String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
        }

        /// A NUL-terminated UTF-8 string (the NUL read too).
        mutating func cString() -> String? {
            guard let nul = bytes[offset..<end].firstIndex(of: 0) else { return nil }
            defer { offset = nul + 1 }
            return String(decoding: bytes[offset..<nul], as: UTF8.self)
        }
    }
}
