import Foundation
import Testing
import WebImageKit
@testable import WebImageServer

/// The decode size shrink-on-load may use never changes what the crop and the resize produce.
@Suite struct ShrinkOnLoadTests {
    func box(_ segments: String) throws -> (size: PixelSize, mode: ImageDecodingOptions.ThumbnailMode)? {
        try ProcessingTransformerTests.options(segments).shrinkOnLoad
    }

    @Test func aCropInPixelsOrPlacedInPixelsNeedsTheFullResolution() throws {
        #expect(try box("c:100:100/w:50") == nil)
        #expect(try box("c:0.5:0.5:nowe:10:10/w:50") == nil)
        #expect(try box("g:so:0:20/c:0.5/w:50") == nil)
    }

    @Test func aRelativeCropEnlargesTheBoxByItsFractions() throws {
        let fit = try #require(try box("c:0.5:0.25/rs:fit:50:20"))
        #expect(fit.size == PixelSize(width: 100, height: 80) && fit.mode == .fit)
        let fill = try #require(try box("c:0.5:0.5:fp:0.2:0.8/rs:fill:50:20"))
        #expect(fill.size == PixelSize(width: 100, height: 40) && fill.mode == .fill)
    }

    @Test func aQuarterTurnSwapsTheBox() throws {
        let turned = try #require(try box("rot:90/rs:fill:50:20"))
        #expect(turned.size == PixelSize(width: 20, height: 50))
    }

    @Test func aShrunkDecodeGivesTheRegionAndSizeOfAFullDecode() throws {
        // 1600×800 JPEG quadrants; the bottom-right quarter fitted into 100×100 is 100×50 of yellow either way.
        let jpeg = try ImageCodersManager.shared.encode(
            Image(pixels: SyntheticImages.quadrants(width: 1600, height: 800)), as: .jpeg, options: ImageEncodingOptions(quality: 0.95))
        let options = try ProcessingTransformerTests.options("c:0.5:0.5:soea/rs:fit:100:100/f:png")
        let transformer = ProcessingTransformer(options: options, maximumPixelCount: 10_000_000)
        let shrink = try #require(options.shrinkOnLoad)
        let decoder = ImageCodersManager.shared
        let shrunk = try decoder.decode(jpeg, options: ImageDecodingOptions(thumbnailPixelSize: shrink.size, thumbnailMode: shrink.mode))
        #expect(shrunk.pixelSize.width < 1600)
        let full = try decoder.decode(jpeg, options: ImageDecodingOptions())
        for image in [shrunk, full] {
            let result = try transformer.transform(image).pixels
            #expect(result.size == PixelSize(width: 100, height: 50))
            for (x, y) in [(2, 2), (50, 25), (97, 47)] {
                #expect(SyntheticImages.close(result[x, y], SyntheticImages.yellow, tolerance: 20), "\(image.pixelSize) \(x),\(y): \(result[x, y])")
            }
        }
    }
}
