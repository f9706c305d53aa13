import Foundation
import Testing
@testable import WebImageCoders

/// Thumbnail and scale-down decoding (SPEC DE-11…DE-14): every coder ends at the exact target size.
@Suite struct ThumbnailDecodingTests {
    static let source = Image(pixels: .samplePattern(width: 400, height: 300, alpha: true))
    static let bounds = PixelSize(width: 100, height: 100)

    @Test(arguments: [ImageFormat.png, .webp, .gif, .avif, .jpeg])
    func thumbnailDecodeGivesTheAspectFitSizeForEveryFormat(format: ImageFormat) throws {
        let data = try ImageCodersManager.shared.encode(Self.source, as: format, options: ImageEncodingOptions(lossless: true))
        let options = ImageDecodingOptions(thumbnailPixelSize: Self.bounds)
        let thumbnail = try ImageCodersManager.shared.decode(data, options: options)
        #expect(thumbnail.pixelSize == PixelSize(width: 100, height: 75))
        let stretched = try ImageCodersManager.shared.decode(
            data, options: ImageDecodingOptions(thumbnailPixelSize: Self.bounds, thumbnailMode: .stretch))
        #expect(stretched.pixelSize == Self.bounds)
    }

    @Test func genericThumbnailEqualsAFullDecodeResampled() throws {
        let data = try PNGCoder().encode(Self.source, as: .png)
        let thumbnail = try PNGCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: Self.bounds))
        let full = try PNGCoder().decode(data)
        #expect(thumbnail.pixels == Resampler.resize(full.pixels, to: PixelSize(width: 100, height: 75)))
    }

    @Test func webPShrinksWhileDecodingAndStaysCloseToAResampledFullDecode() throws {
        // Opaque, so the colour of fully transparent pixels (which scalers treat differently) does not count.
        let opaque = Image(pixels: .samplePattern(width: 400, height: 300))
        let data = try WebPCoder().encode(opaque, as: .webp, options: ImageEncodingOptions(lossless: true))
        let thumbnail = try WebPCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: Self.bounds))
        let reference = Resampler.resize(try WebPCoder().decode(data).pixels, to: thumbnail.pixelSize)
        #expect(psnr(thumbnail.pixels, reference) > 25)
    }

    @Test func jpegShrinksInTheDCTAndEndsAtTheExactSize() throws {
        let photo = Image(pixels: .samplePattern(width: 800, height: 600))
        let data = try JPEGCoder().encode(photo, as: .jpeg)
        let thumbnail = try JPEGCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: Self.bounds))
        #expect(thumbnail.pixelSize == PixelSize(width: 100, height: 75))
        // 1/8 (100×75) is the smallest DCT scale that covers the target: the result is that decode as is.
        #expect(thumbnail.pixels == (try JPEGCoder().decode(data, options: ImageDecodingOptions(), scale: .eighth)).pixels)
        let reference = Resampler.resize(try JPEGCoder().decode(data).pixels, to: thumbnail.pixelSize)
        #expect(psnr(thumbnail.pixels, reference) > 28)
    }

    @Test func scaleDownLimitsTheDecodedBytes() throws { // DE-13
        let data = try PNGCoder().encode(Self.source, as: .png)
        let limit = 100 * 100 * 4
        let image = try ImageCodersManager.shared.decode(data, options: ImageDecodingOptions(scaleDownLimitBytes: limit))
        #expect(image.memoryCost <= limit)
        #expect(image.pixelSize == PixelSize(width: 115, height: 86))
    }
}

@Suite struct ThumbnailOrientationTests {
    @Test func jpegThumbnailFitsTheBoundsUprightAndAppliesOrientation() throws {
        let stored = Image(pixels: .samplePattern(width: 600, height: 400), orientation: .right)
        let data = try JPEGCoder().encode(stored, as: .jpeg)
        let bounds = PixelSize(width: 200, height: 300) // a portrait box for a portrait (upright) photo
        let thumbnail = try JPEGCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: bounds))
        #expect(thumbnail.orientation == .right)
        #expect(thumbnail.pixelSize == PixelSize(width: 300, height: 200)) // stored, i.e. 200×300 upright
        let upright = try JPEGCoder().decode(data, options: ImageDecodingOptions(applyOrientation: true, thumbnailPixelSize: bounds))
        #expect(upright.orientation == .up)
        #expect(upright.pixelSize == bounds)
    }
}
