import Foundation
import Testing
@testable import WebImageCoders

/// Decoding: fixtures written by Pillow, libvips, ImageMagick and cjpeg (scripts/fixtures/make-jpeg-fixtures.py),
/// compared with Pillow's decode of the same files (Pillow 9.4 on the same libjpeg-turbo 2.1.5).
@Suite struct JPEGCoderTests {
    let coder = JPEGCoder()

    /// Every fixture with the encoder that wrote it and what its header must say.
    static let fixtures: [(name: String, width: Int, height: Int, colorSpace: JPEGCoder.ColorSpace)] = [
        ("baseline-420", 45, 29, .yCbCr), // Pillow, 4:2:0
        ("progressive", 45, 29, .yCbCr), // libvips, interlaced
        ("gray", 45, 29, .gray), // ImageMagick, one component
        ("cmyk-adobe", 45, 29, .cmyk), // Pillow, Adobe APP14 (transform 0), inverted inks
        ("ycck", 45, 29, .ycck), // ImageMagick: CMYK stored as YCCK (Adobe transform 2)
        ("444", 45, 29, .yCbCr), // cjpeg -sample 1x1
        ("restart", 45, 29, .yCbCr), // cjpeg -restart 1B: a restart marker after every MCU
        ("rgb", 45, 29, .rgb), // cjpeg -rgb: no colour transform
        ("orientation-6", 40, 24, .yCbCr), // Pillow, EXIF orientation 6
    ]

    @Test(arguments: fixtures.map(\.name))
    func decodedPixelsMatchPillowsDecodeOfTheSameFile(name: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.name == name })
        let image = try coder.decode(Fixtures.data("jpeg/\(name).jpg"))
        let expected = try Fixtures.expectedPixels("jpeg/\(name).rgba", width: fixture.width, height: fixture.height)
        #expect(image.pixelSize == PixelSize(width: fixture.width, height: fixture.height))
        #expect(image.format == .jpeg)
        #expect(!image.hasAlpha && image.pixels.isOpaque)
        // Same library, same settings: measured exact (max difference 0) for every fixture.
        let difference = maxChannelDifference(image.pixels, expected)
        #expect(difference <= 2 || psnr(image.pixels, expected) >= 45, "max difference \(difference)")
    }

    @Test(arguments: fixtures.map(\.name))
    func headerReportsSizeComponentsAndColourSpace(name: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.name == name })
        let info = try coder.info(of: Fixtures.data("jpeg/\(name).jpg"))
        #expect(info.size == PixelSize(width: fixture.width, height: fixture.height))
        #expect(info.outputSize == info.size)
        #expect(info.colorSpace == fixture.colorSpace)
        #expect(info.componentCount == [.gray: 1, .cmyk: 4, .ycck: 4][fixture.colorSpace, default: 3])
        #expect(info.isProgressive == (name == "progressive"))
        #expect(info.hasAdobeMarker == ["cmyk-adobe", "ycck", "rgb"].contains(name))
    }

    @Test func adobeCMYKIsReadAsInvertedInksGivingTheOriginalColours() throws {
        // cmyk-adobe.jpg, ycck.jpg and rgb.jpg hold the same source at q90 without subsampling.
        let rgb = try coder.decode(Fixtures.data("jpeg/rgb.jpg")).pixels
        // Pillow's CMYK is K = 0 with the RGB bytes stored as inverted inks: measured identical.
        let cmyk = try coder.decode(Fixtures.data("jpeg/cmyk-adobe.jpg")).pixels
        #expect(psnr(cmyk, rgb) >= 30)
        // ImageMagick's naive CMYK uses K, stored as YCCK: measured 36.8 dB.
        let ycck = try coder.decode(Fixtures.data("jpeg/ycck.jpg")).pixels
        #expect(psnr(ycck, rgb) >= 30)
    }

    @Test func cmykWithoutTheAdobeMarkerIsAlsoReadAsInvertedInksLikeBrowsersDo() throws {
        // cmyk-plain.jpg is cmyk-adobe.jpg with its APP14 segment removed; Chrome, Firefox and
        // Pillow assume Adobe's inverted inks for every CMYK JPEG, so it looks the same.
        let info = try coder.info(of: Fixtures.data("jpeg/cmyk-plain.jpg"))
        #expect(info.colorSpace == .cmyk && !info.hasAdobeMarker)
        let plain = try coder.decode(Fixtures.data("jpeg/cmyk-plain.jpg")).pixels
        let adobe = try coder.decode(Fixtures.data("jpeg/cmyk-adobe.jpg")).pixels
        #expect(plain == adobe)
    }

    @Test(arguments: JPEGCoder.DCTScale.allCases)
    func dctScalingDividesEachSideRoundingUp(scale: JPEGCoder.DCTScale) throws {
        let data = try Fixtures.data("jpeg/baseline-420.jpg")
        let expected = PixelSize(width: (45 + scale.rawValue - 1) / scale.rawValue, height: (29 + scale.rawValue - 1) / scale.rawValue)
        let image = try coder.decode(data, options: ImageDecodingOptions(), scale: scale)
        #expect(image.pixelSize == expected)
        #expect(try coder.info(of: data, scale: scale).outputSize == expected)
        #expect(scale.scaledSize(of: PixelSize(width: 45, height: 29)) == expected)
    }

    @Test func halfScaleDecodeMatchesPillowsDraftDecode() throws {
        let image = try coder.decode(Fixtures.data("jpeg/baseline-420.jpg"), options: ImageDecodingOptions(), scale: .half)
        let expected = try Fixtures.expectedPixels("jpeg/baseline-420.scale2.rgba", width: 23, height: 15)
        #expect(maxChannelDifference(image.pixels, expected) <= 2) // measured 0
    }

    @Test func largestScaleCoveringATargetIsChosenForThumbnails() {
        let photo = PixelSize(width: 4000, height: 3000)
        #expect(JPEGCoder.DCTScale.largest(for: photo, covering: PixelSize(width: 400, height: 300)) == .eighth)
        #expect(JPEGCoder.DCTScale.largest(for: photo, covering: PixelSize(width: 501, height: 300)) == .quarter)
        #expect(JPEGCoder.DCTScale.largest(for: photo, covering: PixelSize(width: 2000, height: 1600)) == .full)
        #expect(JPEGCoder.DCTScale.largest(for: photo, covering: PixelSize(width: 5000, height: 5000)) == .full)
    }

    @Test func exifOrientationSixIsReportedAsRightAndPixelsStayAsStored() throws {
        let image = try coder.decode(Fixtures.data("jpeg/orientation-6.jpg"))
        #expect(image.orientation == .right)
        #expect(image.pixelSize == PixelSize(width: 40, height: 24))
        #expect(image.size.width == 24 && image.size.height == 40)
    }

    @Test func applyOrientationTurnsThePixelsClockwiseAndSwapsWidthAndHeight() throws {
        let data = try Fixtures.data("jpeg/orientation-6.jpg")
        let stored = try coder.decode(data).pixels
        let image = try coder.decode(data, options: ImageDecodingOptions(applyOrientation: true))
        #expect(image.orientation == .up)
        #expect(image.pixelSize == PixelSize(width: 24, height: 40))
        let turned = image.pixels
        // 90° clockwise: the stored bottom-left comes to the top-left, the stored top-left to the top-right.
        #expect(turned[0, 0] == stored[0, 23])
        #expect(turned[23, 0] == stored[0, 0])
        #expect(turned[0, 39] == stored[39, 23])
        #expect(turned[23, 39] == stored[39, 0])
        let expected = try Fixtures.expectedPixels("jpeg/orientation-6.rgba", width: 40, height: 24)
        #expect(maxChannelDifference(turned, expected.applyingOrientation(.right)) <= 2)
    }

    @Test func oneCoderDecodesAndEncodesOnManyThreadsAtOnce() async throws {
        let data = try Fixtures.data("jpeg/progressive.jpg")
        let coder = coder
        let reference = try coder.decode(data).pixels
        let results = try await withThrowingTaskGroup(of: PixelBuffer.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let image = try coder.decode(data)
                    return try coder.decode(coder.encode(image, as: .jpeg, options: ImageEncodingOptions(quality: 1))).pixels
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { psnr($0, reference) >= 40 })
    }

    @Test func canDecodeRecognisesJPEGOnly() throws {
        #expect(coder.canDecode(try Fixtures.data("jpeg/baseline-420.jpg")))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(!coder.canDecode(Data()))
        #expect(coder.canEncode(to: .jpeg) && !coder.canEncode(to: .png))
    }

    @Test func optionsKeepDataAndScale() throws {
        let data = try Fixtures.data("jpeg/gray.jpg")
        let image = try coder.decode(data, options: ImageDecodingOptions(scale: 2, keepsData: true))
        #expect(image.scale == 2)
        #expect(image.data == data)
    }
}
