package import Foundation

extension ImageMetadata {
    /// Reads the EXIF, XMP and IPTC blocks of an encoded file: JPEG (APP1 `Exif` and XMP, APP13 IPTC), PNG
    /// (`eXIf`, uncompressed `iTXt` `XML:com.adobe.xmp`), WebP (`EXIF`, `XMP `) and AVIF/HEIC (`Exif` and XMP
    /// items of the `meta` box); `nil` when the file has none or is another format.
    ///
    /// Pure Swift with bounds checks on every read: the file is walked in place (not copied) and only the
    /// blocks found are copied, so hostile lengths give `nil`, never a crash or a large allocation.
    package init?(reading data: Data, format: ImageFormat) {
        let bytes = data.startIndex == 0 ? data : Data(data) // indices from 0; a slice of a larger Data is copied
        let found: ImageMetadata
        switch format {
        case .jpeg: found = Self.jpeg(bytes)
        case .png: found = Self.png(bytes)
        case .webp: found = Self.webp(bytes)
        case .avif, .heic: found = Self.isoBMFF(bytes)
        default: return nil
        }
        guard !found.isEmpty else { return nil }
        self = found
    }

    /// JPEG's `Exif\0\0` prefix of an APP1 EXIF segment.
    package static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]
    /// The namespace that starts an APP1 XMP segment.
    package static let xmpPrefix: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    /// The signature that starts an APP13 Photoshop segment.
    package static let photoshopPrefix: [UInt8] = Array("Photoshop 3.0".utf8) + [0]

    private static func jpeg(_ bytes: Data) -> ImageMetadata {
        var result = ImageMetadata()
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return result }
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xDA || marker == 0xD9 { break } // the scan starts: no more metadata
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { break }
            let body = bytes[(offset + 4)..<(offset + 2 + length)]
            if marker == 0xE1, result.exif == nil, body.starts(with: exifPrefix) {
                result.exif = Data(body.dropFirst(exifPrefix.count))
            } else if marker == 0xE1, result.xmp == nil, body.starts(with: xmpPrefix) {
                result.xmp = Data(body.dropFirst(xmpPrefix.count))
            } else if marker == 0xED, result.iptc == nil, body.starts(with: photoshopPrefix) {
                result.iptc = iptc(inPhotoshopResources: body.dropFirst(photoshopPrefix.count))
            }
            offset += 2 + length
        }
        return ImageMetadata(exif: result.exif, xmp: result.xmp, iptc: result.iptc)
    }

    /// The payload of resource 0x0404 (IPTC-IIM) in a run of Photoshop `8BIM` image resources.
    private static func iptc(inPhotoshopResources resources: Data) -> Data? {
        var offset = resources.startIndex
        while offset + 12 <= resources.endIndex, resources[offset..<(offset + 4)].elementsEqual("8BIM".utf8) {
            let id = Int(resources[offset + 4]) << 8 | Int(resources[offset + 5])
            let nameLength = Int(resources[offset + 6])
            let sizeAt = offset + 6 + ((nameLength + 2) & ~1) // Pascal string padded to an even length
            guard sizeAt + 4 <= resources.endIndex else { return nil }
            let size = resources[sizeAt..<(sizeAt + 4)].reduce(0) { $0 << 8 | Int($1) }
            let start = sizeAt + 4
            guard size >= 0, size <= resources.endIndex - start else { return nil }
            if id == 0x0404 { return Data(resources[start..<(start + size)]) }
            offset = start + ((size + 1) & ~1)
        }
        return nil
    }

    private static func png(_ bytes: Data) -> ImageMetadata {
        var result = ImageMetadata()
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bigEndian(bytes, offset, 4)
            guard length <= bytes.count - offset - 12 else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let body = bytes[(offset + 8)..<(offset + 8 + length)]
            if type == "eXIf", result.exif == nil {
                result.exif = Data(body)
            } else if type == "iTXt", result.xmp == nil, let text = uncompressedXMP(inITXt: body) {
                result.xmp = text
            } else if type == "IEND" {
                break
            }
            offset += 12 + length
        }
        return ImageMetadata(exif: result.exif, xmp: result.xmp)
    }

    /// The text of an uncompressed `iTXt` chunk whose keyword is `XML:com.adobe.xmp`.
    private static func uncompressedXMP(inITXt body: Data) -> Data? {
        let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
        guard body.starts(with: keyword) else { return nil }
        var offset = body.startIndex + keyword.count
        guard offset + 2 <= body.endIndex, body[offset] == 0 else { return nil } // compression flag 0
        offset += 2
        for _ in 0..<2 { // language tag and translated keyword, both NUL-terminated
            guard let end = body[offset...].firstIndex(of: 0) else { return nil }
            offset = end + 1
        }
        return Data(body[offset...])
    }

    private static func webp(_ bytes: Data) -> ImageMetadata {
        var result = ImageMetadata()
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else { return result }
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = littleEndian32(bytes, offset + 4)
            guard size <= bytes.count - offset - 8 else { break }
            let type = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let body = bytes[(offset + 8)..<(offset + 8 + size)]
            if type == "EXIF" {
                result.exif = Data(body.starts(with: exifPrefix) ? body.dropFirst(exifPrefix.count) : body)
            } else if type == "XMP " {
                result.xmp = Data(body)
            }
            offset += 8 + size + (size & 1)
        }
        return ImageMetadata(exif: result.exif, xmp: result.xmp)
    }

    private static func bigEndian(_ bytes: Data, _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian32(_ bytes: Data, _ offset: Int) -> Int {
        bytes[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
