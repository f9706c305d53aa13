import Foundation
import WebImageCore

/// Writes an image's EXIF, XMP and IPTC blocks (``Image/metadata``) into encoded files, beside
/// `ICCEmbedding`'s profiles: JPEG APP1/APP13 segments, PNG `eXIf`/`iTXt` chunks (WebP's go through libwebp's muxer in `WebPStillCodec`).
enum MetadataEmbedding {
    /// The largest body one JPEG segment holds: 65,535 − 2 length bytes.
    static let jpegSegmentCapacity = 65_533

    /// The EXIF block to write for `image`: its own with the orientation tag set to the image's orientation, so
    /// the tag always matches the pixels. `nil` when the image has none, or when its block has no orientation
    /// tag to set while the pixels need turning (the encoder then writes its own orientation, if it can).
    static func exif(for image: Image) -> Data? {
        guard let exif = image.metadata?.exif else { return nil }
        return ExifBlock.settingOrientation(exif, to: image.orientation) ?? (image.orientation == .up ? exif : nil)
    }

    /// `jpeg` with APP1 `Exif`, APP1 XMP and APP13 IPTC segments after its SOI and JFIF segment; a block too
    /// large for one segment is left out (extended XMP is not written).
    static func jpeg(_ jpeg: Data, exif: Data?, xmp: Data?, iptc: Data?) -> Data {
        let bytes = [UInt8](jpeg)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return jpeg }
        var insertAt = 2
        if bytes[2] == 0xFF, bytes[3] == 0xE0, bytes.count >= 6 { insertAt += 2 + (Int(bytes[4]) << 8 | Int(bytes[5])) }
        guard insertAt <= bytes.count else { return jpeg }
        var segments: [UInt8] = []
        func append(marker: UInt8, _ body: [UInt8]) {
            guard body.count <= jpegSegmentCapacity else { return }
            segments += [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        if let exif { append(marker: 0xE1, ImageMetadata.exifPrefix + [UInt8](exif)) }
        if let xmp { append(marker: 0xE1, ImageMetadata.xmpPrefix + [UInt8](xmp)) }
        if let iptc { append(marker: 0xED, ImageMetadata.photoshopPrefix + photoshopIPTCResource(iptc)) }
        guard !segments.isEmpty else { return jpeg }
        return Data(bytes[..<insertAt] + segments + bytes[insertAt...])
    }

    /// IPTC records as a Photoshop `8BIM` image resource 0x0404 with an empty name, padded to an even length.
    private static func photoshopIPTCResource(_ iptc: Data) -> [UInt8] {
        let size = UInt32(iptc.count)
        var resource: [UInt8] = Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
        resource += [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
        resource += [UInt8](iptc)
        if iptc.count.isMultiple(of: 2) == false { resource.append(0) }
        return resource
    }

    /// `png` with `eXIf` and an uncompressed `iTXt` `XML:com.adobe.xmp` chunk right after its IHDR (PNG has no
    /// standard place for IPTC, so it is not written).
    static func png(_ png: Data, exif: Data?, xmp: Data?) -> Data {
        let ihdrEnd = 33 // signature (8) + IHDR chunk (25)
        guard png.count > ihdrEnd else { return png }
        var chunks = Data()
        if let exif { chunks.append(pngChunk("eXIf", exif)) }
        if let xmp {
            var body = Data("XML:com.adobe.xmp".utf8)
            body.append(contentsOf: [0, 0, 0, 0, 0]) // keyword end, no compression, method 0, no language, no translation
            body.append(xmp)
            chunks.append(pngChunk("iTXt", body))
        }
        guard !chunks.isEmpty else { return png }
        var output = Data(png.prefix(ihdrEnd))
        output.append(chunks)
        output.append(png.dropFirst(ihdrEnd))
        return output
    }

    /// One PNG chunk: length, type, body and CRC.
    static func pngChunk(_ type: String, _ body: Data) -> Data {
        let typeBytes = Data(type.utf8)
        var chunk = Data(withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init))
        chunk.append(typeBytes)
        chunk.append(body)
        chunk.append(contentsOf: withUnsafeBytes(of: Zlib.crc32(body, continuing: Zlib.crc32(typeBytes)).bigEndian, Array.init))
        return chunk
    }
}
