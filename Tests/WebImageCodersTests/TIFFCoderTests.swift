import Foundation
import Testing
@testable import WebImageCoders

/// TIFF decoding: one fixture per common layout (scripts/fixtures/make-tiff-fixtures.py, written by
/// ImageMagick and tiffcp), compared with ImageMagick's decode of the same file's first page.
@Suite struct TIFFCoderTests {
    let coder = TIFFCoder()

    static let layouts = [
        "rgb-lzw", "rgb-none", "rgba-unassociated", "rgba-associated", "rgb16", "gray", "palette", "bilevel-g4",
        "cmyk", "jpeg", "tiled", "planar", "multipage",
    ]

    @Test(arguments: layouts)
    func everyCommonLayoutDecodesToImageMagicksPixels(name: String) throws {
        let image = try coder.decode(Fixtures.data("tiff/\(name).tif"), options: ImageDecodingOptions(firstFrameOnly: true))
        let expected = try Fixtures.expectedPixels("tiff/\(name).rgba", width: 40, height: 30)
        #expect(image.format == .tiff)
        #expect(image.pixelSize == PixelSize(width: 40, height: 30))
        // Straight alpha after libtiff's premultiplication loses a little where alpha is low.
        let difference = maxChannelDifference(image.pixels, expected)
        #expect(difference <= 3, "max difference \(difference)")
    }

    @Test func alphaIsReportedOnlyWhenPresent() throws {
        #expect(try coder.decode(Fixtures.data("tiff/rgba-unassociated.tif")).hasAlpha)
        #expect(try !coder.decode(Fixtures.data("tiff/rgb-lzw.tif")).hasAlpha)
    }

    @Test func orientationTagIsReportedAndPixelsStayAsStored() throws {
        let data = try Fixtures.data("tiff/orientation-6.tif")
        let image = try coder.decode(data)
        #expect(image.orientation == .right)
        #expect(image.pixelSize == PixelSize(width: 40, height: 30))
        let upright = try coder.decode(data, options: ImageDecodingOptions(applyOrientation: true))
        #expect(upright.orientation == .up)
        #expect(upright.pixelSize == PixelSize(width: 30, height: 40))
    }

    @Test func pagesOfTheFirstPagesSizeBecomeFrames() throws {
        let data = try Fixtures.data("tiff/multipage.tif")
        let image = try coder.decode(data)
        #expect(image.frames.count == 3) // the fourth, 8×8 page is skipped
        #expect(image.frames.map { $0.pixels[5, 5] } == [RGBA(red: 255, green: 0, blue: 0), RGBA(red: 0, green: 128, blue: 0),
                                                         RGBA(red: 0, green: 0, blue: 255)])
        #expect(try coder.decode(data, options: ImageDecodingOptions(firstFrameOnly: true)).frames.count == 1)
    }

    @Test func cmykWithProfileConvertsThroughItLikeTificc() throws {
        let image = try coder.decode(Fixtures.data("tiff/cmyk-profile.tif"))
        let reference = try PNGCoder().decode(Fixtures.data("tiff/cmyk-profile.srgb.png"))
        let difference = maxChannelDifference(image.pixels, reference.pixels)
        #expect(difference <= 2, "max difference \(difference) against tificc")
    }

    @Test func sizeIsCheckedAgainstThePixelLimitBeforeDecoding() throws {
        let data = try Fixtures.data("tiff/rgb-lzw.tif")
        #expect {
            try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: 1000))
        } throws: { ($0 as? ImageCodingError)?.code == .imageTooLarge }
    }

    @Test func truncatedFilesThrowTypedErrorsAndNeverCrash() throws {
        for name in ["rgb-lzw", "tiled", "jpeg", "multipage", "bilevel-g4"] {
            let data = try Fixtures.data("tiff/\(name).tif")
            for prefix in truncations(of: data, samples: 48) {
                do {
                    _ = try coder.decode(prefix)
                } catch let error as ImageCodingError {
                    #expect([.truncatedData, .corruptData, .unsupportedFormat, .invalidDimensions].contains(error.code), "\(error)")
                }
            }
        }
    }

    @Test func hostileHeadersThrowTypedErrors() throws {
        // Little-endian header whose first IFD offset points past the end, and one with a giant width.
        let pastEnd = Data([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x00])
        #expect(throws: ImageCodingError.self) { try coder.decode(pastEnd) }
        var huge = try [UInt8](Fixtures.data("tiff/rgb-none.tif"))
        // Patch ImageWidth (tag 256) to 0x7FFFFFFF wherever the IFD holds it as a LONG or SHORT.
        let ifd = Int(huge[4]) | Int(huge[5]) << 8 | Int(huge[6]) << 16 | Int(huge[7]) << 24
        let count = Int(huge[ifd]) | Int(huge[ifd + 1]) << 8
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            if huge[entry] == 0x00, huge[entry + 1] == 0x01 {
                huge[entry + 2] = 4; huge[entry + 3] = 0 // LONG
                huge[entry + 8] = 0xFF; huge[entry + 9] = 0xFF; huge[entry + 10] = 0xFF; huge[entry + 11] = 0x7F
            }
        }
        #expect {
            try coder.decode(Data(huge))
        } throws: { [.imageTooLarge, .corruptData].contains(($0 as? ImageCodingError)?.code) }
        for seed in 1...200 as ClosedRange<UInt64> {
            _ = try? coder.decode(Data([0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]) + randomBytes(count: 200, seed: seed))
        }
    }

    @Test func managerDecodesTIFF() throws {
        let image = try ImageCodersManager.shared.decode(Fixtures.data("tiff/rgb-lzw.tif"))
        #expect(image.format == .tiff)
    }
}
