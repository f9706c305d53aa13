import Foundation
import Testing
import WebImageCore

@Suite struct ImageFormatDetectionTests {
    static let signatures: [(ImageFormat, [UInt8])] = [
        (.jpeg, [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]),
        (.png, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]),
        (.gif, Array("GIF89a".utf8) + [1, 0, 1, 0]),
        (.gif, Array("GIF87a".utf8) + [1, 0, 1, 0]),
        (.webp, Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)),
        (.tiff, [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]),
        (.tiff, [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]),
        (.heic, ftyp("heic", compatible: ["mif1", "heic"])),
        (.heic, ftyp("heix", compatible: ["mif1"])),
        (.heif, ftyp("mif1", compatible: ["mif1"])),
        (.heif, ftyp("msf1", compatible: ["msf1"])),
        (.avif, ftyp("avif", compatible: ["mif1", "miaf"])),
        (.avif, ftyp("avis", compatible: ["msf1"])),
        (.avif, ftyp("mif1", compatible: ["avif", "mif1"])), // generic major brand, AVIF compatible brand
        (.bmp, Array("BM".utf8) + [0x3A, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 40, 0, 0, 0]),
        (.ico, [0, 0, 1, 0, 1, 0, 16, 16]),
        (.svg, Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)),
        (.svg, Array("\u{FEFF}  <?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<SVG width=\"1\">".utf8)),
        (.pdf, Array("%PDF-1.7\n".utf8)),
        (.jpegXL, [0xFF, 0x0A, 0xFA, 0x7F]),
        (.jpegXL, [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]),
    ]

    static func ftyp(_ major: String, compatible: [String]) -> [UInt8] {
        let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        let size = UInt32(8 + body.count)
        return withUnsafeBytes(of: size.bigEndian, Array.init) + Array("ftyp".utf8) + body
    }

    @Test(arguments: signatures)
    func leadingBytesIdentifyTheFormat(format: ImageFormat, bytes: [UInt8]) {
        #expect(ImageFormat(detecting: Data(bytes)) == format) // FM-01
    }

    @Test func emptyOrShortDataIsUnknownNeverACrash() {
        #expect(ImageFormat(detecting: Data()) == .unknown)
        for (_, bytes) in Self.signatures {
            for length in 0..<min(bytes.count, 4) where length < 2 {
                #expect(ImageFormat(detecting: Data(bytes.prefix(length))) == .unknown)
            }
        }
        #expect(ImageFormat(detecting: Data([0xFF])) == .unknown)
        #expect(ImageFormat(detecting: Data([0xFF, 0xD8])) == .unknown)
    }

    @Test func aPrefixOfASignatureIsItsFormatOrUnknownNeverAnother() {
        for (format, bytes) in Self.signatures {
            for length in 0...bytes.count {
                let detected = ImageFormat(detecting: Data(bytes.prefix(length)))
                // An ISO-BMFF file whose major brand is the generic `mif1` is HEIF until its compatible brands
                // (which may say AVIF) have arrived.
                let generic = detected == .heif && format == .avif
                #expect(detected == format || detected == .unknown || generic, "\(format) cut to \(length) bytes read as \(detected)")
            }
            #expect(ImageFormat(detecting: Data(bytes)) == format)
        }
    }

    @Test func unrecognisedBytesAreUnknown() {
        #expect(ImageFormat(detecting: Data("hello, world".utf8)) == .unknown)
        #expect(ImageFormat(detecting: Data("<html><body>".utf8)) == .unknown)
        #expect(ImageFormat(detecting: Data(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8))) == .unknown)
        #expect(ImageFormat(detecting: Data(Self.ftyp("isom", compatible: ["mp41"]))) == .unknown)
        #expect(ImageFormat(detecting: Data(Array("BM".utf8) + Array(repeating: 0xEE, count: 30))) == .unknown)
    }

    @Test func ftypBoxWithHostileSizeIsHandled() {
        var bytes = Self.ftyp("avif", compatible: [])
        bytes[0...3] = [0xFF, 0xFF, 0xFF, 0xFF]
        #expect(ImageFormat(detecting: Data(bytes)) == .avif)
        bytes[0...3] = [0, 0, 0, 1]
        #expect(ImageFormat(detecting: Data(bytes)) == .unknown)
    }

    @Test func detectionWorksOnDataSlicesWithNonZeroStartIndex() {
        let padded = Data([0, 0, 0] + [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(ImageFormat(detecting: padded.dropFirst(3)) == .png)
    }

    @Test func everyFormatHasAMimeTypeAndExtensionThatMapBack() {
        for format in ImageFormat.allCases where format != .unknown {
            #expect(ImageFormat(mimeType: format.mimeType) == format) // FM-03 replacement
            #expect(ImageFormat(fileExtension: format.fileExtension) == format)
            #expect(!format.fileExtension.isEmpty)
        }
        #expect(ImageFormat.jpeg.mimeType == "image/jpeg")
        #expect(ImageFormat.jpeg.fileExtension == "jpg")
        #expect(ImageFormat.unknown.mimeType == "application/octet-stream")
    }

    @Test func mimeTypesIgnoreParametersCaseAndCommonAliases() {
        #expect(ImageFormat(mimeType: "IMAGE/PNG; charset=binary") == .png)
        #expect(ImageFormat(mimeType: " image/webp ") == .webp)
        #expect(ImageFormat(mimeType: "image/jpg") == .jpeg)
        #expect(ImageFormat(mimeType: "image/x-icon") == .ico)
        #expect(ImageFormat(mimeType: "text/html") == .unknown)
        #expect(ImageFormat(mimeType: "") == .unknown)
    }

    @Test func fileExtensionsAcceptDotsCaseAndAliases() {
        #expect(ImageFormat(fileExtension: ".JPEG") == .jpeg)
        #expect(ImageFormat(fileExtension: "tif") == .tiff)
        #expect(ImageFormat(fileExtension: "jxl") == .jpegXL)
        #expect(ImageFormat(fileExtension: "txt") == .unknown)
        #expect(ImageFormat(fileExtension: "unknown") == .unknown)
        #expect(ImageFormat(fileExtension: "") == .unknown)
    }
}
