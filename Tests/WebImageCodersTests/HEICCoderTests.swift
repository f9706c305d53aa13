import Foundation
import Testing
@testable import WebImageCoders

/// HEICCoder against files made by heif-enc 1.15 (x265), whose expected pixels are heif-convert's
/// decode (see scripts/fixtures/make-heic-jxl-fixtures.py).
@Suite struct HEICCoderTests {
    let coder = HEICCoder()

    /// heif-convert and we both convert with libheif 1.15; the tolerance allows for rounding differences.
    static let tolerance = 2

    @Test func decodesOpaqueEightBitFileLikeHeifConvert() throws {
        let image = try coder.decode(Fixtures.data("heic/opaque.heic"))
        let expected = try Fixtures.expectedPixels("heic/opaque.rgba", width: 48, height: 32)
        #expect(image.format == .heic)
        #expect(image.pixelSize == PixelSize(width: 48, height: 32))
        #expect(!image.hasAlpha)
        #expect(image.pixels.isOpaque)
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
        #expect(image.orientation == .up)
        #expect(image.frames.count == 1)
    }

    @Test func decodesAlphaPlaneAsStraightAlphaLikeHeifConvert() throws {
        let image = try coder.decode(Fixtures.data("heic/alpha.heic"))
        let expected = try Fixtures.expectedPixels("heic/alpha.rgba", width: 48, height: 32)
        #expect(image.hasAlpha)
        #expect(!image.pixels.isOpaque)
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
    }

    @Test func decodesTenBitFileToEightBitsLikeHeifConvert() throws {
        let data = try Fixtures.data("heic/deep10.heic")
        let image = try coder.decode(data)
        let expected = try Fixtures.expectedPixels("heic/deep10.rgba", width: 48, height: 32)
        #expect(!image.hasAlpha)
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
        #expect(data != (try Fixtures.data("heic/opaque.heic")))
    }

    @Test func exifOrientationWithoutIrotIsReportedAndThePixelsStayAsStored() throws {
        let image = try coder.decode(Fixtures.data("heic/exif6.heic"))
        let expected = try Fixtures.expectedPixels("heic/exif6.rgba", width: 48, height: 32)
        #expect(image.orientation == .right)
        #expect(image.pixelSize == PixelSize(width: 48, height: 32))
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
        let upright = try coder.decode(Fixtures.data("heic/exif6.heic"), options: ImageDecodingOptions(applyOrientation: true))
        #expect(upright.orientation == .up)
        #expect(upright.pixelSize == PixelSize(width: 32, height: 48))
    }

    /// libheif decodes AVIF too (with its AV1 plugin): the AVIF fixture with irot 1 + imir 1 shows that
    /// libheif's transform is applied once and then reported as `.up`, matching AVIFCoder's upright decode.
    @Test func irotAndImirAreAppliedByLibheifOnceAndReportedAsUp() throws {
        let data = try Fixtures.data("avif/rotated.avif")
        let decoded = try data.withUnsafeBytes { try LibHEIF.decode($0, format: .avif, options: ImageDecodingOptions()) }
        let reference = try AVIFCoder().decode(data, options: ImageDecodingOptions(applyOrientation: true))
        #expect(decoded.orientation == .up)
        #expect(decoded.pixels.size == reference.pixelSize)
        #expect(psnr(decoded.pixels, reference.pixels) > 35)
        let stored = try AVIFCoder().decode(data)
        #expect(stored.pixelSize != reference.pixelSize) // the fixture does turn by a quarter
    }

    @Test func storedThumbnailCoveringTheRequestIsDecodedInsteadOfTheFullImage() throws {
        let data = try Fixtures.data("heic/thumb.heic")
        let options = ImageDecodingOptions(maximumPixelCount: 24 * 16, thumbnailPixelSize: PixelSize(width: 24, height: 16))
        // The full 48×32 image exceeds the limit: only the 24×16 `thmb` item can have been decoded.
        let thumbnail = try coder.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 24, height: 16))
        // The same picture: its smooth red and green gradients match the full image scaled down (the blue
        // channel's fine pattern aliases differently in heif-enc's thumbnail scaler).
        let full = try coder.decode(data)
        let scaled = Resampler.resize(full.pixels, to: PixelSize(width: 24, height: 16))
        func meanRedGreenDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
            let redGreen = zip(a, b).enumerated().filter { $0.offset % 4 < 2 }
            return redGreen.reduce(0) { $0 + abs(Int($1.element.0) - Int($1.element.1)) } / redGreen.count
        }
        #expect(meanRedGreenDifference(thumbnail.pixels.bytes, scaled.bytes) < 20)
        // A different picture (the same one upside down) is far off, so the check above can fail.
        let rows = stride(from: 0, to: scaled.bytes.count, by: scaled.bytesPerRow).map { scaled.bytes[$0..<$0 + scaled.bytesPerRow] }
        #expect(meanRedGreenDifference(thumbnail.pixels.bytes, Array(rows.reversed().joined())) > 40)
        let withoutThumbnail = codingError {
            try coder.decode(Fixtures.data("heic/opaque.heic"), options: options)
        }
        #expect(withoutThumbnail?.code == .imageTooLarge)
    }

    @Test func thumbnailSmallerThanTheRequestIsNotUsed() throws {
        let data = try Fixtures.data("heic/thumb.heic")
        let options = ImageDecodingOptions(maximumPixelCount: 24 * 16, thumbnailPixelSize: PixelSize(width: 30, height: 30))
        #expect(codingError { try coder.decode(data, options: options) }?.code == .imageTooLarge)
        let image = try coder.decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 30, height: 30)))
        #expect(image.pixelSize == PixelSize(width: 30, height: 20))
    }

    @Test func preferredEmbeddedThumbnailIsDecodedWhateverItsSizeAndBecomesTheImage() throws {
        let data = try Fixtures.data("heic/thumb.heic")
        // Only the 24×16 `thmb` item fits the limit, and no size is asked for: the thumbnail must have been chosen.
        let thumbnail = try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: 24 * 16, prefersEmbeddedThumbnail: true))
        #expect(thumbnail.pixelSize == PixelSize(width: 24, height: 16))
        // A requested size larger than the thumbnail does not enlarge it: the thumbnail is the image.
        let larger = try coder.decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 40, height: 40), prefersEmbeddedThumbnail: true))
        #expect(larger.pixelSize == PixelSize(width: 24, height: 16))
        let smaller = try coder.decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 12, height: 12), prefersEmbeddedThumbnail: true))
        #expect(smaller.pixelSize == PixelSize(width: 12, height: 8))
        // Without a stored thumbnail the main image is decoded.
        let opaque = try coder.decode(Fixtures.data("heic/opaque.heic"), options: ImageDecodingOptions(prefersEmbeddedThumbnail: true))
        #expect(opaque.pixelSize == PixelSize(width: 48, height: 32))
        #expect(!ImageDecodingOptions(prefersEmbeddedThumbnail: true).decodesFullImage)
    }

    @Test func imageOverThePixelLimitThrowsImageTooLarge() throws {
        let data = try Fixtures.data("heic/opaque.heic")
        let error = codingError { try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: 48 * 32 - 1)) }
        #expect(error?.code == .imageTooLarge)
        #expect(throws: Never.self) { try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: 48 * 32)) }
    }

    @Test(arguments: [(20_000, 20_000), (60_000, 60_000), (0x7FFF_FFFF, 2)])
    func hostileSpatialExtentThrowsImageTooLargeWithoutDecoding(width: Int, height: Int) throws {
        var bytes = try [UInt8](Fixtures.data("heic/opaque.heic"))
        // heif-enc writes two `ispe` properties (the 64×64 coded size and the 48×32 image): rewrite both.
        let properties = bytes.indices.dropLast(16).filter { bytes[$0..<$0 + 4].elementsEqual("ispe".utf8) }
        #expect(properties.count == 2)
        for ispe in properties {
            for (offset, value) in [(ispe + 8, width), (ispe + 12, height)] {
                for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
            }
        }
        let error = codingError { try coder.decode(Data(bytes)) }
        #expect(error?.code == .imageTooLarge, "\(String(describing: error))")
    }

    /// A file found by FuzzHEIC: its `ispe` says 53×32, its HEVC stream codes 48×7168 (libheif 1.15 returns that as is).
    /// Kept as `.bin` so that the every-fixture-decodes rule of BuiltInCodersTests skips it.
    @Test func codedSizeOtherThanTheDeclaredSizeThrowsCorruptData() throws {
        let data = try Fixtures.data("heic/size-mismatch.heic.bin")
        #expect(ImageFormat(detecting: data) == .heic)
        #expect(codingError { try coder.decode(data) }?.code == .corruptData)
    }

    @Test func everyTruncationThrowsATypedError() throws {
        for name in ["opaque", "alpha", "thumb"] {
            let data = try Fixtures.data("heic/\(name).heic")
            for cut in truncations(of: data) {
                #expect(codingError { try coder.decode(cut) } != nil, "\(name) cut at \(cut.count)")
            }
        }
    }

    @Test func dataThatIsNotHEIFIsRefusedAsUnsupported() throws {
        #expect(codingError { try coder.decode(Fixtures.data("avif/opaque.avif")) }?.code == .unsupportedFormat)
        #expect(codingError { try coder.decode(Fixtures.data("jxl/opaque.jxl")) }?.code == .unsupportedFormat)
        #expect(!coder.canDecode(try Fixtures.data("avif/opaque.avif")))
        #expect(coder.canDecode(try Fixtures.data("heic/opaque.heic")))
        #expect(coder.canEncode(to: .heic) && !coder.canEncode(to: .heif))
    }

    // MARK: Encoding

    @Test func encodedFileIsReadByHeifConvertsLibraryAndKeepsThePicture() throws {
        for alpha in [false, true] {
            let pixels = PixelBuffer.samplePattern(width: 64, height: 48, alpha: alpha)
            let data = try coder.encode(Image(pixels: pixels), as: .heic, options: ImageEncodingOptions(quality: 0.9))
            #expect(ImageFormat(detecting: data) == .heic)
            let decoded = try coder.decode(data)
            #expect(decoded.pixelSize == pixels.size)
            #expect(decoded.hasAlpha == alpha)
            #expect(psnr(decoded.pixels, pixels) > 30, "alpha \(alpha)")
        }
    }

    @Test func lowerQualityWritesASmallerFile() throws {
        let image = Image(pixels: .samplePattern(width: 64, height: 48))
        let high = try coder.encode(image, as: .heic, options: ImageEncodingOptions(quality: 0.95))
        let low = try coder.encode(image, as: .heic, options: ImageEncodingOptions(quality: 0.2))
        #expect(low.count < high.count)
    }

    @Test func orientationIsWrittenAsIrotImirAndDecodesUpright() throws {
        let pixels = PixelBuffer.samplePattern(width: 64, height: 48)
        let data = try coder.encode(Image(pixels: pixels, orientation: .right), as: .heic)
        #expect(data.withUnsafeBytes { AVIFContainer.hasProperty("irot", in: $0) })
        let decoded = try coder.decode(data)
        let upright = Image(pixels: pixels, orientation: .right).normalizedOrientation()
        #expect(decoded.orientation == .up)
        #expect(decoded.pixelSize == upright.pixelSize)
        #expect(psnr(decoded.pixels, upright.pixels) > 30)
    }

    @Test func losslessAndOtherFormatsAreRefused() {
        let image = Image(pixels: .samplePattern(width: 8, height: 8))
        #expect(codingError { try coder.encode(image, as: .heic, options: ImageEncodingOptions(lossless: true)) }?.code == .encodingFailed)
        #expect(codingError { try coder.encode(image, as: .png) }?.code == .unsupportedFormat)
    }

    @Test func sharedRegistryDecodesHEIC() throws {
        let image = try ImageCodersManager.shared.decode(Fixtures.data("heic/alpha.heic"))
        #expect(image.format == .heic)
        #expect(image.hasAlpha)
    }
}
