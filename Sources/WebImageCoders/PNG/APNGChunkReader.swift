import Foundation
import WebImageCore

/// One chunk of a PNG file: its four-letter type and where its data lies in the file.
struct PNGChunk {
    /// The chunk type as a big-endian integer (`PNGChunk.type("IDAT")`).
    let type: UInt32
    /// The offsets of the chunk's data in the file's bytes (without length, type and CRC).
    let data: Range<Int>

    /// The integer for a four-letter chunk type.
    static func type(_ name: StaticString) -> UInt32 {
        name.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    static let ihdr = type("IHDR"), plte = type("PLTE"), trns = type("tRNS"), idat = type("IDAT")
    static let iend = type("IEND"), actl = type("acTL"), fctl = type("fcTL"), fdat = type("fdAT")
    static let exif = type("eXIf")
}

/// Walks the chunks of a PNG held in memory, in Swift: the APNG decoder needs the animation chunks
/// that libpng does not interpret.
enum APNGChunkReader {
    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether the bytes so far show an animated PNG: an `acTL` chunk before the first `IDAT`
    /// (an `acTL` after it is ignored, as the APNG specification says). A cheap scan: no CRC checks.
    static func isAnimated(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            guard bytes.count >= signature.count, bytes.prefix(signature.count).elementsEqual(signature) else { return false }
            var offset = signature.count
            while bytes.count - offset >= 8 {
                let length = Int(readUInt32(bytes, at: offset)), type = readUInt32(bytes, at: offset + 4)
                if type == PNGChunk.actl { return true }
                if type == PNGChunk.idat || type == PNGChunk.iend || length > Int(Int32.max) { return false }
                offset += 12 + length
            }
            return false
        }
    }

    /// How many complete chunks of `type` the bytes so far hold. A cheap scan: no CRC checks.
    static func count(of type: UInt32, in data: Data) -> Int {
        data.withUnsafeBytes { bytes in
            guard bytes.count >= signature.count else { return 0 }
            var offset = signature.count, count = 0
            while bytes.count - offset >= 12 {
                let length = Int(readUInt32(bytes, at: offset))
                guard length <= Int(Int32.max), bytes.count - offset - 12 >= length else { break }
                if readUInt32(bytes, at: offset + 4) == type { count += 1 }
                offset += 12 + length
            }
            return count
        }
    }

    /// The orientation in the first complete `eXIf` chunk of the bytes so far, `.up` when there is none.
    /// A cheap scan: no CRC checks (libpng checks them).
    static func exifOrientation(_ data: Data) -> ImageOrientation {
        data.withUnsafeBytes { bytes in
            guard bytes.count >= signature.count else { return .up }
            var offset = signature.count
            while bytes.count - offset >= 8 {
                let length = Int(readUInt32(bytes, at: offset)), type = readUInt32(bytes, at: offset + 4)
                guard length <= Int(Int32.max), bytes.count - offset - 12 >= length, type != PNGChunk.iend else { return .up }
                if type == PNGChunk.exif {
                    let tiff = UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(offset + 8 + length)])
                    return ExifOrientationReader.orientation(inTIFF: tiff) ?? .up
                }
                offset += 12 + length
            }
            return .up
        }
    }

    /// Every chunk from the IHDR through IEND, with lengths and CRCs checked.
    ///
    /// Throws `truncatedData` when the bytes end before IEND (a cut anywhere, as for a still PNG),
    /// `corruptData` for a bad signature, a chunk length over 2³¹−1 or a CRC mismatch. Bytes after IEND are ignored.
    /// With `upToTruncation`, a cut returns the complete chunks before it instead of throwing.
    static func chunks(in bytes: UnsafeRawBufferPointer, upToTruncation: Bool = false) throws(ImageCodingError) -> [PNGChunk] {
        try walk(bytes, upToTruncation: upToTruncation, lenient: false).chunks
    }

    /// The chunks of a possibly damaged file, read as browsers read it: a CRC mismatch is let pass (the
    /// chunk's name is listed in `badChecksums`), and a cut or an impossible length ends the walk
    /// (`reachedIEND` false) instead of throwing; an IDAT or fdAT cut short is the last chunk, with the data
    /// that is there. Only a bad signature throws.
    static func chunksLeniently(
        in bytes: UnsafeRawBufferPointer
    ) throws(ImageCodingError) -> (chunks: [PNGChunk], badChecksums: [String], reachedIEND: Bool) {
        try walk(bytes, upToTruncation: true, lenient: true)
    }

    /// The chunk walk behind ``chunks(in:upToTruncation:)`` and ``chunksLeniently(in:)``.
    private static func walk(
        _ bytes: UnsafeRawBufferPointer, upToTruncation: Bool, lenient: Bool
    ) throws(ImageCodingError) -> (chunks: [PNGChunk], badChecksums: [String], reachedIEND: Bool) {
        let prefix = min(bytes.count, signature.count)
        guard bytes.prefix(prefix).elementsEqual(signature.prefix(prefix)) else {
            throw ImageCodingError(.corruptData, format: .png, "not a PNG signature")
        }
        var chunks: [PNGChunk] = []
        var badChecksums: [String] = []
        var offset = signature.count
        while true {
            guard bytes.count - offset >= 12 else {
                if upToTruncation { return (chunks, badChecksums, false) }
                throw truncated(chunks.count)
            }
            let length = Int(readUInt32(bytes, at: offset))
            guard length <= Int(Int32.max) else {
                if lenient { return (chunks, badChecksums, false) }
                throw ImageCodingError(.corruptData, format: .png, "chunk \(chunks.count + 1) has an invalid length")
            }
            let type = readUInt32(bytes, at: offset + 4)
            guard bytes.count - offset - 12 >= length else {
                if lenient, type == PNGChunk.idat || type == PNGChunk.fdat {
                    // Image data cut short: the bytes that are there (no CRC to check) are the frame's last data.
                    chunks.append(PNGChunk(type: type, data: (offset + 8)..<min(offset + 8 + length, bytes.count)))
                }
                if upToTruncation { return (chunks, badChecksums, false) }
                throw truncated(chunks.count)
            }
            let stored = readUInt32(bytes, at: offset + 8 + length)
            let computed = PNGCRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8 + length)]))
            if stored != computed {
                guard lenient else {
                    throw ImageCodingError(.corruptData, format: .png, "CRC mismatch in chunk \(chunks.count + 1) (\(name(of: type)))")
                }
                badChecksums.append(name(of: type))
            }
            chunks.append(PNGChunk(type: type, data: (offset + 8)..<(offset + 8 + length)))
            if type == PNGChunk.iend { return (chunks, badChecksums, true) }
            offset += 12 + length
        }
    }

    /// The big-endian 32-bit integer at `offset`; the caller has checked the bounds.
    static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// The big-endian 16-bit integer at `offset`; the caller has checked the bounds.
    static func readUInt16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    /// The printable name of a chunk type.
    static func name(of type: UInt32) -> String {
        let scalars = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: type >> $0) }
        return scalars.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
            ? String(decoding: scalars, as: UTF8.self) : String(format: "0x%08X", type)
    }

    private static func truncated(_ count: Int) -> ImageCodingError {
        ImageCodingError(.truncatedData, format: .png, "the data ends after \(count) chunks, before IEND")
    }
}

/// The CRC-32 PNG chunks carry (ISO 3309, polynomial 0xEDB88320, as zlib's `crc32`).
package enum PNGCRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The CRC of `bytes`, continuing from `crc` (the CRC of the bytes before them; 0 to start).
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var c = ~crc
            for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
            return ~c
        }
    }

    /// The CRC of `bytes`.
    package static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        Array(bytes).withUnsafeBytes { checksum($0) }
    }
}
