import WebImageKit

/// The item properties of a still AVIF (ISO BMFF boxes `meta` › `iprp` › `ipco`), read without decoding:
/// `ispe` (size), `pixi` or `av1C` (bit depth), `auxC` (an alpha plane), `colr` (ICC profile or colour code
/// points). `nil` when the boxes are missing, or when `irot`/`imir` turn the image (the decode then says
/// what the picture looks like).
struct AVIFBoxes {
    var size: PixelSize
    var bitDepth: Int?
    var hasAlpha = false
    var iccProfile: [UInt8]?
    /// `sRGB` for BT.709 primaries with the sRGB transfer, else `CICP p/t/m`; `nil` without an `nclx` box.
    var colourCodePoints: String?

    init?(_ reader: ByteReader) {
        guard let meta = Self.children(reader, in: 0..<reader.count).first(where: { $0.type == "meta" }),
              let iprp = Self.children(reader, in: (meta.body.lowerBound + 4)..<meta.body.upperBound).first(where: { $0.type == "iprp" }),
              let ipco = Self.children(reader, in: iprp.body).first(where: { $0.type == "ipco" }) else { return nil }
        var size: PixelSize?
        for box in Self.children(reader, in: ipco.body) {
            let body = box.body.lowerBound
            switch box.type {
            case "ispe" where size == nil:
                if let width = reader.bigEndian(body + 4, 4), let height = reader.bigEndian(body + 8, 4) {
                    size = PixelSize(width: width, height: height)
                }
            case "pixi": bitDepth = bitDepth ?? reader.uint8(body + 5)
            case "av1C":
                if bitDepth == nil, let flags = reader.uint8(body + 2) {
                    bitDepth = flags & 0x40 == 0 ? 8 : flags & 0x20 == 0 ? 10 : 12
                }
            case "auxC":
                let name = reader.slice(body + 4, box.body.count - 4).map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name?.hasSuffix("auxiliary:alpha") == true || name == "urn:mpeg:hevc:2015:auxid:1" { hasAlpha = true }
            case "colr":
                if reader.matches("prof", at: body) || reader.matches("rICC", at: body) {
                    iccProfile = reader.slice(body + 4, box.body.count - 4)
                } else if reader.matches("nclx", at: body), let primaries = reader.bigEndian(body + 4, 2),
                          let transfer = reader.bigEndian(body + 6, 2), let matrix = reader.bigEndian(body + 8, 2) {
                    colourCodePoints = primaries == 1 && transfer == 13 ? "sRGB" : "CICP \(primaries)/\(transfer)/\(matrix)"
                }
            case "irot", "imir": return nil
            default: break
            }
        }
        guard let size, size.width > 0, size.height > 0 else { return nil }
        self.size = size
    }

    /// The boxes directly inside `range`: type and body (after the size and type).
    private static func children(_ reader: ByteReader, in range: Range<Int>) -> [(type: String, body: Range<Int>)] {
        var boxes: [(String, Range<Int>)] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, var length = reader.bigEndian(offset, 4),
              let type = reader.slice(offset + 4, 4) {
            var header = 8
            if length == 1, let large = reader.bigEndian(offset + 8, 8) { (length, header) = (large, 16) }
            if length == 0 { length = range.upperBound - offset }
            guard length >= header, offset + length <= range.upperBound else { break }
            boxes.append((String(decoding: type, as: UTF8.self), (offset + header)..<(offset + length)))
            offset += length
        }
        return boxes
    }
}
