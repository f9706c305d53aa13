import Foundation
import WebImageCore

/// Finds the ICC profile a file embeds, by walking its container in Swift: JPEG APP2 `ICC_PROFILE`
/// markers (a profile may be split over up to 255 of them), PNG `iCCP` (zlib-compressed) and WebP
/// `ICCP`. AVIF and TIFF profiles come from libavif and libtiff. `nil` means no profile, or one to
/// ignore (PNG's `sRGB` chunk: the pixels are sRGB already; a damaged or incomplete profile).
enum EmbeddedColorProfile {
    /// The profile carried by APP2 markers before the first scan; `nil` unless every chunk 1…n is there once.
    static func jpeg(_ bytes: UnsafeRawBufferPointer) -> Data? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        let tag = Array("ICC_PROFILE\0".utf8)
        var chunks: [Int: Range<Int>] = [:]
        var declaredCount = 0
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue } // fill byte
            if marker == 0xDA || marker == 0xD9 { break } // start of scan, end of image
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue } // no length
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { break }
            let body = offset + 4, bodyEnd = offset + 2 + length
            if marker == 0xE2, bodyEnd - body >= tag.count + 2, bytes[body..<(body + tag.count)].elementsEqual(tag) {
                let sequence = Int(bytes[body + tag.count]), count = Int(bytes[body + tag.count + 1])
                guard sequence >= 1, sequence <= count, declaredCount == 0 || declaredCount == count,
                      chunks[sequence] == nil else { return nil }
                declaredCount = count
                chunks[sequence] = (body + tag.count + 2)..<bodyEnd
            }
            offset = bodyEnd
        }
        guard declaredCount > 0, chunks.count == declaredCount else { return nil }
        var profile = Data()
        for sequence in 1...declaredCount {
            guard let range = chunks[sequence] else { return nil }
            profile.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        return profile
    }

    /// The `iCCP` profile before the image data, inflated; `nil` when there is none or an `sRGB` chunk says sRGB.
    static func png(_ data: Data) -> Data? {
        data.withUnsafeBytes { bytes -> Data? in
            guard bytes.count >= 8 else { return nil }
            var offset = 8
            var compressed: Range<Int>?
            while bytes.count - offset >= 12 {
                let length = Int(readUInt32(bytes, offset))
                guard length <= Int(Int32.max), bytes.count - offset - 12 >= length else { break }
                let type = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8)]), as: UTF8.self)
                let body = (offset + 8)..<(offset + 8 + length)
                switch type {
                case "IDAT", "IEND": offset = bytes.count
                case "sRGB": return nil
                case "iCCP" where compressed == nil:
                    // Profile name (1–79 bytes), NUL, compression method 0, zlib stream.
                    guard let nul = bytes[body].firstIndex(of: 0), nul + 2 <= body.upperBound, bytes[nul + 1] == 0 else { return nil }
                    compressed = (nul + 2)..<body.upperBound
                default: break
                }
                offset += 12 + length
            }
            guard let compressed else { return nil }
            return Zlib.inflate(Data(bytes[compressed]), limit: ColorManagement.maximumProfileSize)
        }
    }

    /// Whether a PNG stores grey samples (colour type 0 or 4 in its IHDR), to which only a grey profile applies.
    static func pngIsGray(_ data: Data) -> Bool {
        guard data.count > 25 else { return false }
        let colorType = data[data.startIndex + 25]
        return colorType == 0 || colorType == 4
    }

    /// The `ICCP` chunk of an extended (VP8X) WebP file.
    static func webp(_ data: Data) -> Data? {
        data.withUnsafeBytes { bytes -> Data? in
            guard bytes.count >= 30, bytes[12..<16].elementsEqual("VP8X".utf8), bytes[20] & 0x20 != 0 else { return nil }
            var offset = 12
            while bytes.count - offset >= 8 {
                let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)))
                guard bytes.count - offset - 8 >= length else { return nil }
                if bytes[offset..<(offset + 4)].elementsEqual("ICCP".utf8) {
                    return Data(bytes[(offset + 8)..<(offset + 8 + length)])
                }
                offset += 8 + length + (length & 1)
            }
            return nil
        }
    }

    private static func readUInt32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
