/// Bounds-checked reads of big- and little-endian integers from header bytes: every read past the end
/// gives `nil`, so a damaged header can never crash a reader.
struct ByteReader {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    func uint8(_ offset: Int) -> Int? {
        offset >= 0 && offset < bytes.count ? Int(bytes[offset]) : nil
    }

    func bigEndian(_ offset: Int, _ width: Int) -> Int? {
        guard offset >= 0, width > 0, offset + width <= bytes.count else { return nil }
        return bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | Int($1) }
    }

    func littleEndian(_ offset: Int, _ width: Int) -> Int? {
        guard offset >= 0, width > 0, offset + width <= bytes.count else { return nil }
        return bytes[offset..<(offset + width)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// The bytes in `offset..<offset + length`, or `nil` when they run past the end.
    func slice(_ offset: Int, _ length: Int) -> [UInt8]? {
        guard offset >= 0, length >= 0, offset + length <= bytes.count else { return nil }
        return Array(bytes[offset..<(offset + length)])
    }

    /// Whether the bytes at `offset` spell `text` (ASCII).
    func matches(_ text: String, at offset: Int) -> Bool {
        slice(offset, text.utf8.count).map { $0.elementsEqual(text.utf8) } ?? false
    }
}
