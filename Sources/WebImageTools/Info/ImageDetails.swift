import Foundation
import WebImageKit

/// What `webimage info` reads from an image's headers besides size and frames: bit depth, colour profile
/// name and EXIF camera and date, and for still WebP and AVIF (which the coders only decode whole) the
/// size and alpha too. Never decodes pixels; a field the headers do not give stays `nil`.
struct ImageDetails {
    /// Bits per channel: 8, or 1, 2, 4, 16 (PNG), 10, 12 (AVIF).
    var bitDepth: Int?
    /// The embedded ICC profile's description; `sRGB` for PNG's sRGB chunk or AVIF's sRGB colour code
    /// points; `nil` when there is none.
    var colourProfile: String?
    /// The EXIF camera and date, when present.
    var exif: ExifSummary?
    /// The size in pixels (WebP and AVIF, whose coders give no header-only size).
    var size: PixelSize?
    /// Whether the container says the image has alpha (WebP and AVIF).
    var hasAlpha: Bool?

    /// Files are read up to here for metadata: profiles and EXIF come before the pixel data.
    static let readLimit = 16 << 20

    /// Reads the headers of `data`, of `format`.
    init(_ data: Data, format: ImageFormat) {
        let reader = ByteReader([UInt8](data.prefix(Self.readLimit)))
        switch format {
        case .jpeg: readJPEG(reader)
        case .png: readPNG(reader)
        case .gif: bitDepth = 8
        case .webp: readWebP(reader)
        case .avif: AVIFBoxes(reader).map { apply($0) }
        case .tiff: readTIFF(reader)
        case .bmp: readBMP(reader)
        default: break
        }
    }

    /// Markers up to the first scan: the frame header's precision, APP1 EXIF and APP2 ICC chunks (in order).
    private mutating func readJPEG(_ reader: ByteReader) {
        var offset = 2
        var iccChunks: [Int: [UInt8]] = [:]
        while reader.uint8(offset) == 0xFF, let marker = reader.uint8(offset + 1), marker != 0xDA,
              let length = reader.bigEndian(offset + 2, 2), length >= 2 {
            let body = offset + 4, bodyLength = length - 2
            switch marker {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                bitDepth = reader.uint8(body)
            case 0xE1 where reader.matches("Exif\0\0", at: body):
                if exif == nil { exif = reader.slice(body + 6, bodyLength - 6).flatMap(ExifSummary.init(tiff:)) }
            case 0xE2 where reader.matches("ICC_PROFILE\0", at: body):
                if let sequence = reader.uint8(body + 12), let chunk = reader.slice(body + 14, bodyLength - 14) {
                    iccChunks[sequence] = chunk
                }
            default: break
            }
            offset += 2 + length
        }
        if !iccChunks.isEmpty { colourProfile = Self.name(ofProfile: iccChunks.keys.sorted().flatMap { iccChunks[$0] ?? [] }) }
    }

    /// Chunks up to the pixel data: IHDR's bit depth, iCCP (inflated for its name), sRGB and eXIf.
    private mutating func readPNG(_ reader: ByteReader) {
        bitDepth = reader.uint8(24)
        var offset = 8
        while let length = reader.bigEndian(offset, 4), offset + 8 + length <= reader.count {
            let body = offset + 8
            if reader.matches("IDAT", at: offset + 4) || reader.matches("IEND", at: offset + 4) { break }
            if reader.matches("iCCP", at: offset + 4), let chunk = reader.slice(body, length),
               let nameEnd = chunk.firstIndex(of: 0), nameEnd + 2 < chunk.count {
                colourProfile = Inflate.zlib(Array(chunk[(nameEnd + 2)...])).map(Self.name(ofProfile:))
                    ?? String(decoding: chunk[..<nameEnd], as: UTF8.self)
            } else if reader.matches("sRGB", at: offset + 4), colourProfile == nil {
                colourProfile = "sRGB"
            } else if reader.matches("eXIf", at: offset + 4) {
                exif = reader.slice(body, length).flatMap(ExifSummary.init(tiff:))
            }
            offset += 12 + length
        }
    }

    /// The first chunk (VP8, VP8L or VP8X) for size and alpha, then ICCP and EXIF chunks.
    private mutating func readWebP(_ reader: ByteReader) {
        bitDepth = 8
        guard reader.matches("RIFF", at: 0), reader.matches("WEBP", at: 8) else { return }
        if reader.matches("VP8 ", at: 12), reader.bigEndian(23, 3) == 0x9D012A,
           let width = reader.littleEndian(26, 2), let height = reader.littleEndian(28, 2) {
            size = PixelSize(width: width & 0x3FFF, height: height & 0x3FFF)
            hasAlpha = false
        } else if reader.matches("VP8L", at: 12), reader.uint8(20) == 0x2F, let bits = reader.littleEndian(21, 4) {
            size = PixelSize(width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
            hasAlpha = (bits >> 28) & 1 == 1
        } else if reader.matches("VP8X", at: 12), let flags = reader.uint8(20),
                  let width = reader.littleEndian(24, 3), let height = reader.littleEndian(27, 3) {
            size = PixelSize(width: width + 1, height: height + 1)
            hasAlpha = flags & 0x10 != 0
        }
        var offset = 12
        while let length = reader.littleEndian(offset + 4, 4), offset + 8 + length <= reader.count {
            if reader.matches("ICCP", at: offset), let profile = reader.slice(offset + 8, length) {
                colourProfile = Self.name(ofProfile: profile)
            } else if reader.matches("EXIF", at: offset), var tiff = reader.slice(offset + 8, length) {
                if tiff.starts(with: "Exif\0\0".utf8) { tiff.removeFirst(6) }
                exif = ExifSummary(tiff: tiff)
            }
            offset += 8 + length + (length & 1)
        }
    }

    private mutating func apply(_ boxes: AVIFBoxes) {
        size = boxes.size
        bitDepth = boxes.bitDepth
        hasAlpha = boxes.hasAlpha
        colourProfile = boxes.iccProfile.map(Self.name(ofProfile:)) ?? boxes.colourCodePoints
    }

    static func name(ofProfile profile: [UInt8]) -> String {
        ICCProfileName.description(ofProfile: profile) ?? "unnamed ICC profile"
    }
}
