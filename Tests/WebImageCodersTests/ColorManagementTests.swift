import Foundation
import Testing
import CLCMS2
@testable import WebImageCoders

/// ICC colour management: files with an embedded profile (scripts/fixtures/make-icc-fixtures.py) decode to
/// the pixels lcms2's own `tificc` gives when converting the same decoded samples to sRGB.
@Suite struct ColorManagementTests {
    static let fixtures: [(file: String, reference: String)] = [
        ("p3.jpg", "p3-jpg"), ("p3.png", "p3-png"), ("adobe-rgb.jpg", "adobe-rgb-jpg"), ("cmyk-profile.jpg", "cmyk-profile-jpg"),
        ("p3.webp", "p3-webp"), ("gray-linear.jpg", "gray-linear-jpg"), ("p3.tif", "p3-tif"),
        ("p3.jxl", "p3-png"),  // lossless JPEG XL of the P3 PNG's samples, its profile attached
    ]

    @Test(arguments: fixtures.map(\.file))
    func embeddedProfileIsConvertedToSRGBLikeTificc(file: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.file == file })
        let image = try ImageCodersManager.shared.decode(Fixtures.data("icc/\(file)"))
        let reference = try PNGCoder().decode(Fixtures.data("icc/\(fixture.reference).srgb.png"))
        #expect(image.iccProfile == nil)
        #expect(image.pixelSize == reference.pixelSize)
        let difference = maxChannelDifference(image.pixels, reference.pixels.withAlphaFlagFromContent())
        #expect(difference <= 2, "max difference \(difference) against tificc")
    }

    @Test(arguments: ["p3.jpg", "p3.png", "cmyk-profile.jpg"])
    func aThumbnailDecodedBandByBandIsConvertedLikeTheFullImage(file: String) throws {
        // The streaming scale-down path (issue 15) must convert too: its thumbnail equals the converted full
        // decode resized, within resampling noise, and not the unconverted one.
        let data = try Fixtures.data("icc/\(file)")
        let full = try ImageCodersManager.shared.decode(data)
        let box = PixelSize(width: max(1, full.pixelSize.width / 2), height: max(1, full.pixelSize.height / 2))
        let thumbnail = try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(thumbnailPixelSize: box))
        let kept = try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(thumbnailPixelSize: box, keepsColorProfile: true))
        let reference = Resampler.resize(full.pixels, to: thumbnail.pixelSize)
        #expect(thumbnail.pixelSize.width <= box.width && thumbnail.pixelSize.height <= box.height)
        #expect(meanChannelDifference(thumbnail.pixels, reference) < 3)
        #expect(meanChannelDifference(kept.pixels, reference) > meanChannelDifference(thumbnail.pixels, reference) + 3)
    }

    @Test(arguments: ["p3.jpg", "p3.png", "adobe-rgb.jpg", "p3.webp", "p3.avif", "gray-linear.jpg", "p3.heic", "p3.jxl"])
    func conversionChangesTheSampleValues(file: String) throws {
        // The decode without conversion keeps the stored samples; the converted one must differ, or the test above proves nothing.
        let data = try Fixtures.data("icc/\(file)")
        let converted = try ImageCodersManager.shared.decode(data)
        let kept = try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(keepsColorProfile: true))
        #expect(maxChannelDifference(converted.pixels, kept.pixels) > 10)
    }

    @Test func avifProfileFromTheColrBoxIsAppliedToTheDecodedPixels() throws {
        let data = try Fixtures.data("icc/p3.avif")
        let profile = try Fixtures.data("icc/display-p3.icc")
        let kept = try AVIFCoder().decode(data, options: ImageDecodingOptions(keepsColorProfile: true))
        #expect(kept.iccProfile == profile)
        let converted = try AVIFCoder().decode(data)
        let expected = ColorManagement.finish(Image(pixels: kept.pixels), profile: profile, options: ImageDecodingOptions())
        #expect(converted.iccProfile == nil)
        #expect(maxChannelDifference(converted.pixels, expected.pixels) == 0)
        #expect(maxChannelDifference(converted.pixels, kept.pixels) > 10)
    }

    @Test func heicProfileFromTheColrBoxIsConvertedAsPhonesNeedIt() throws {
        // heif-enc copied the P3 PNG's profile into a `colr` prof box, as phones write one.
        let data = try Fixtures.data("icc/p3.heic")
        let profile = try Fixtures.data("icc/display-p3.icc")
        let kept = try HEICCoder().decode(data, options: ImageDecodingOptions(keepsColorProfile: true))
        #expect(kept.iccProfile == profile)
        let converted = try HEICCoder().decode(data)
        let expected = ColorManagement.finish(Image(pixels: kept.pixels), profile: profile, options: ImageDecodingOptions())
        #expect(converted.iccProfile == nil)
        #expect(maxChannelDifference(converted.pixels, expected.pixels) == 0)
        #expect(maxChannelDifference(converted.pixels, kept.pixels) > 10)
        // Against tificc's conversion of the lossless PNG: only the HEVC coding noise is left.
        let reference = try PNGCoder().decode(Fixtures.data("icc/p3-png.srgb.png"))
        #expect(meanChannelDifference(converted.pixels.withAlphaFlagFromContent(), reference.pixels.withAlphaFlagFromContent()) < 4)
    }

    @Test func keepsColorProfileHandsTheProfileWithTheOriginalPixels() throws {
        let data = try Fixtures.data("icc/p3.png")
        let profile = try Fixtures.data("icc/display-p3.icc")
        let image = try PNGCoder().decode(data, options: ImageDecodingOptions(keepsColorProfile: true))
        #expect(image.iccProfile == profile)
    }

    @Test func jpegProfileSplitOverSeveralAPP2MarkersIsReassembled() throws {
        // A 150,000-byte profile needs three APP2 markers; the extractor must join them in sequence order.
        var profile = try [UInt8](Fixtures.data("icc/display-p3.icc"))
        profile += [UInt8](repeating: 0x5A, count: 150_000 - profile.count)
        let image = Image(pixels: PixelBuffer(width: 4, height: 4, fill: .white), iccProfile: Data(profile))
        let jpeg = try JPEGCoder().encode(image, as: .jpeg)
        let markers = jpeg.withUnsafeBytes { bytes in
            (0..<(bytes.count - 13)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xE2 }.count
        }
        #expect(markers == 3)
        let extracted = jpeg.withUnsafeBytes { EmbeddedColorProfile.jpeg($0) }
        #expect(extracted == Data(profile))
    }

    @Test func encodersEmbedTheProfileTheImageCarries() throws {
        let data = try Fixtures.data("icc/p3.jpg")
        let profile = try Fixtures.data("icc/display-p3.icc")
        let kept = try JPEGCoder().decode(data, options: ImageDecodingOptions(keepsColorProfile: true))
        let png = try PNGCoder().encode(kept, as: .png)
        let jpeg = try JPEGCoder().encode(kept, as: .jpeg)
        #expect(EmbeddedColorProfile.png(png) == profile)
        #expect(jpeg.withUnsafeBytes { EmbeddedColorProfile.jpeg($0) } == profile)
        // Re-decoded with conversion, the PNG gives what the original gives.
        let original = try JPEGCoder().decode(data)
        let roundTrip = try PNGCoder().decode(png)
        #expect(maxChannelDifference(original.pixels, roundTrip.pixels) == 0)
    }

    @Test(arguments: ["lcms2", "ghostscript-srgb.icc", "icc-profiles-free-srgb.icc"])
    func srgbProfileIsRecognisedAndCostsNoConversion(source: String) throws {
        let profile = try source == "lcms2" ? #require(LittleCMS.builtInSRGBProfile()) : Fixtures.data("icc/\(source)")
        let transform = try #require(ColorTransformCache(capacity: 4).transform(for: profile, inputFormat: LittleCMS.PixelFormat.rgba))
        #expect(transform.isIdentity)
    }

    /// RGB matrix/TRC profiles (Display P3, Adobe RGB) take the table-and-matrix path instead of lcms2's
    /// transform; over a 64-level grid of every channel it gives lcms2's pixels within one level, alpha untouched.
    @Test(arguments: ["display-p3.icc", "adobe-rgb.jpg"])
    func matrixShaperProfilesConvertLikeLcms2WithinOneLevel(fixture: String) throws {
        let data = try Fixtures.data("icc/\(fixture)")
        let profile = fixture.hasSuffix(".icc") ? data : try #require(data.withUnsafeBytes { EmbeddedColorProfile.jpeg($0) })
        let (source, srgb) = try profile.withUnsafeBytes { bytes in
            (try #require(cmsOpenProfileFromMem(bytes.baseAddress, UInt32(bytes.count))), try #require(cmsCreate_sRGBProfile()))
        }
        defer { cmsCloseProfile(source); cmsCloseProfile(srgb) }
        let fast = try #require(MatrixShaperTransform(from: source, to: srgb))
        let format = LittleCMS.PixelFormat.rgba
        let lcms = try #require(cmsCreateTransform(source, format, srgb, format, UInt32(INTENT_PERCEPTUAL), UInt32(cmsFLAGS_NOCACHE)))
        defer { cmsDeleteTransform(lcms) }
        let levels = stride(from: 0, through: 255, by: 4).map(UInt8.init) + [255]
        var input: [UInt8] = []
        for r in levels { for g in levels { for b in levels { input += [r, g, b, UInt8(truncatingIfNeeded: Int(r) ^ Int(b))] } } }
        let count = input.count / 4
        var expected = input, actual = input
        cmsDoTransform(lcms, input, &expected, UInt32(count))
        input.withUnsafeBytes { source in
            actual.withUnsafeMutableBytes { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                fast.apply(from, to, count: count)
            }
        }
        let difference = zip(expected, actual).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(difference <= 1, "max difference \(difference) against lcms2")
        #expect(stride(from: 3, to: input.count, by: 4).allSatisfy { actual[$0] == input[$0] }, "alpha changed")
        #expect(zip(input, actual).contains { $0 != $1 }, "nothing was converted")
    }

    @Test func wideGamutProfileIsNotTakenForSRGB() throws {
        let p3 = try Fixtures.data("icc/display-p3.icc")
        let transform = try #require(ColorTransformCache(capacity: 4).transform(for: p3, inputFormat: LittleCMS.PixelFormat.rgba))
        #expect(!transform.isIdentity)
    }

    @Test func concurrentDecodesShareOneTransformAndAgree() throws {
        // Sixteen threads convert through the one cached transform at once: every result is the same.
        let data = try Fixtures.data("icc/p3.png")
        let reference = try PNGCoder().decode(data).pixels
        let results = LockedResults()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            results.append(try? PNGCoder().decode(data).pixels)
        }
        #expect(results.values.count == 16)
        #expect(results.values.allSatisfy { $0 == reference })
    }

    @Test func transformCacheIsBoundedAndReusesTransforms() throws {
        let cache = ColorTransformCache(capacity: 2)
        let p3 = try Fixtures.data("icc/display-p3.icc")
        let first = cache.transform(for: p3, inputFormat: LittleCMS.PixelFormat.rgba)
        let again = cache.transform(for: p3, inputFormat: LittleCMS.PixelFormat.rgba)
        #expect(first === again)
        var other = p3
        for index in 0..<3 {
            other[other.startIndex + 100] = UInt8(index) // a different profile (header bytes lcms2 ignores)
            _ = cache.transform(for: other, inputFormat: LittleCMS.PixelFormat.rgba)
        }
        #expect(cache.count == 2)
    }

    @Test func damagedProfileIsIgnoredAndThePixelsKept() throws {
        var data = try Fixtures.data("icc/p3.jpg")
        let kept = try JPEGCoder().decode(data, options: ImageDecodingOptions(keepsColorProfile: true))
        // Overwrite the profile's tag table with garbage (the APP2 payload starts after "ICC_PROFILE\0", seq, count).
        let marker = try #require(data.firstRange(of: Data("ICC_PROFILE".utf8)))
        for offset in (marker.lowerBound + 14 + 128)..<(marker.lowerBound + 14 + 200) { data[offset] = 0xEE }
        let image = try JPEGCoder().decode(data)
        #expect(maxChannelDifference(image.pixels, kept.pixels) == 0)
    }

    @Test func cmykProfileWithKeepsColorProfileFallsBackToTheNaiveConversionWithoutProfile() throws {
        let image = try JPEGCoder().decode(Fixtures.data("icc/cmyk-profile.jpg"), options: ImageDecodingOptions(keepsColorProfile: true))
        #expect(image.iccProfile == nil)
    }
}

/// Results gathered from several threads.
private final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [PixelBuffer?] = []

    func append(_ value: PixelBuffer?) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }

    var values: [PixelBuffer?] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
