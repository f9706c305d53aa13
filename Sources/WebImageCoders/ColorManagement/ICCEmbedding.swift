import Foundation

/// Writes an ICC profile into encoded files, so an image decoded with
/// `ImageDecodingOptions.keepsColorProfile` keeps its colours when re-encoded.
enum ICCEmbedding {
    /// The profile bytes one APP2 marker holds: 65,535 − 2 (length) − 14 (`ICC_PROFILE\0`, sequence, count).
    static let jpegChunkSize = 65_519

    /// `jpeg` with the profile as APP2 `ICC_PROFILE` markers after its leading APP0/APP1 segments
    /// (JFIF and EXIF stay first); unchanged when the profile needs more than 255 markers or the data is not a JPEG.
    static func jpeg(_ jpeg: Data, profile: Data) -> Data {
        let chunkCount = (profile.count + jpegChunkSize - 1) / jpegChunkSize
        guard !profile.isEmpty, chunkCount <= 255, jpeg.count >= 4 else { return jpeg }
        let bytes = [UInt8](jpeg)
        guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { return jpeg }
        var insertAt = 2
        while insertAt + 4 <= bytes.count, bytes[insertAt] == 0xFF, bytes[insertAt + 1] == 0xE0 || bytes[insertAt + 1] == 0xE1 {
            insertAt += 2 + (Int(bytes[insertAt + 2]) << 8 | Int(bytes[insertAt + 3]))
        }
        guard insertAt <= bytes.count else { return jpeg }
        var segments = [UInt8]()
        segments.reserveCapacity(profile.count + chunkCount * 18)
        let profileBytes = [UInt8](profile)
        for index in 0..<chunkCount {
            let chunk = profileBytes[(index * jpegChunkSize)..<min(profileBytes.count, (index + 1) * jpegChunkSize)]
            let length = 2 + 14 + chunk.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)]
            segments += Array("ICC_PROFILE\0".utf8) + [UInt8(index + 1), UInt8(chunkCount)]
            segments += chunk
        }
        var output = Data(bytes[..<insertAt])
        output.append(contentsOf: segments)
        output.append(contentsOf: bytes[insertAt...])
        return output
    }

    /// `png` with an `iCCP` chunk right after its IHDR; unchanged when the data is not a PNG or zlib fails.
    static func png(_ png: Data, profile: Data) -> Data {
        // Signature (8) + IHDR chunk (4 length + 4 type + 13 data + 4 CRC).
        let ihdrEnd = 33
        guard !profile.isEmpty, png.count > ihdrEnd, let compressed = Zlib.deflate(profile) else { return png }
        var body = Data("ICC profile".utf8)
        body.append(contentsOf: [0, 0]) // name terminator, compression method 0
        body.append(compressed)
        guard body.count <= Int(Int32.max) else { return png }
        let type = Data("iCCP".utf8)
        var chunk = Data()
        chunk.append(contentsOf: withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init))
        chunk.append(type)
        chunk.append(body)
        let crc = Zlib.crc32(body, continuing: Zlib.crc32(type))
        chunk.append(contentsOf: withUnsafeBytes(of: crc.bigEndian, Array.init))
        var output = Data(png.prefix(ihdrEnd))
        output.append(chunk)
        output.append(png.dropFirst(ihdrEnd))
        return output
    }
}
