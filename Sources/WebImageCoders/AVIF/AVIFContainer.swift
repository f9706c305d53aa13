import Foundation

/// The few facts about an AVIF file's ISO-BMFF box structure that libavif 0.11 does not report
/// in a form we can act on: whether the data is shorter than its boxes declare, and the sizes the
/// `ispe` properties claim (libavif rejects an oversized image at parse time without telling us
/// its dimensions). Pure Swift with a bounds check on every read.
enum AVIFContainer {
    /// Whether the top-level boxes declare more bytes than `bytes` holds (a cut file).
    ///
    /// A cut that lands inside a box header or inside a box's declared extent is caught here, so a
    /// file cut at any point fails even where the missing bytes are not needed for the picture.
    static func isTruncated(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard let box = box(in: bytes, at: offset, end: bytes.count) else { return true }
            guard box.end <= bytes.count else { return true }
            offset = box.end
        }
        return false
    }

    /// Every width × height an `ispe` property in `meta/iprp/ipco` claims, in file order.
    static func spatialExtents(_ bytes: UnsafeRawBufferPointer) -> [(width: Int, height: Int)] {
        guard let meta = child("meta", in: bytes, from: 0, to: bytes.count),
              let iprp = child("iprp", in: bytes, from: meta.payload + 4, to: meta.end), // meta is a FullBox
              let ipco = child("ipco", in: bytes, from: iprp.payload, to: iprp.end) else { return [] }
        var extents: [(width: Int, height: Int)] = []
        var offset = ipco.payload
        while let box = box(in: bytes, at: offset, end: ipco.end), box.end <= ipco.end {
            if box.type == fourCC("ispe"), box.payload + 12 <= box.end,
               let width = uint32(bytes, at: box.payload + 4), let height = uint32(bytes, at: box.payload + 8) {
                extents.append((Int(width), Int(height)))
            }
            offset = box.end
        }
        return extents
    }

    /// Whether any property box of `type` (such as `irot`) is in `meta/iprp/ipco`, whichever item it belongs to.
    static func hasProperty(_ type: String, in bytes: UnsafeRawBufferPointer) -> Bool {
        guard let meta = child("meta", in: bytes, from: 0, to: bytes.count),
              let iprp = child("iprp", in: bytes, from: meta.payload + 4, to: meta.end),
              let ipco = child("ipco", in: bytes, from: iprp.payload, to: iprp.end) else { return false }
        return child(type, in: bytes, from: ipco.payload, to: ipco.end) != nil
    }

    private struct Box {
        let type: UInt32
        /// Where the box's content starts (after the size, type and any 64-bit size).
        let payload: Int
        /// One past the box's last byte, as declared (may lie beyond the data).
        let end: Int
    }

    /// The box header at `offset`, or `nil` when it is cut off or malformed.
    private static func box(in bytes: UnsafeRawBufferPointer, at offset: Int, end: Int) -> Box? {
        guard offset + 8 <= end, let size32 = uint32(bytes, at: offset), let type = uint32(bytes, at: offset + 4) else {
            return nil
        }
        switch size32 {
        case 0: // extends to the end of the enclosing space
            return Box(type: type, payload: offset + 8, end: end)
        case 1: // 64-bit size follows the type
            guard offset + 16 <= end, let high = uint32(bytes, at: offset + 8), let low = uint32(bytes, at: offset + 12) else {
                return nil
            }
            let size = UInt64(high) << 32 | UInt64(low)
            guard size >= 16, size <= UInt64(Int.max - offset) else { return nil }
            return Box(type: type, payload: offset + 16, end: offset + Int(size))
        case 2..<8:
            return nil
        default:
            return Box(type: type, payload: offset + 8, end: offset + Int(size32))
        }
    }

    /// The first box of `type` among the boxes in `start..<end`.
    private static func child(_ type: String, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Box? {
        let wanted = fourCC(type)
        var offset = start
        while let box = box(in: bytes, at: offset, end: min(end, bytes.count)), box.end <= end {
            if box.type == wanted { return box }
            offset = box.end
        }
        return nil
    }

    private static func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    private static func fourCC(_ text: String) -> UInt32 {
        text.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
