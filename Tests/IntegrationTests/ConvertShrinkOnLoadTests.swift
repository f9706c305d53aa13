import Foundation
import Testing
import WebImageKit
import WebImageTools

/// `convert --transform resize:…` shrinks while decoding (issue 15): the leading resize becomes the
/// decode's thumbnail size, with the same result as resizing a full decode.
@Suite struct ConvertShrinkOnLoadTests {
    static let source = Image(pixels: .samplePattern(width: 640, height: 480, alpha: true, seed: 21))

    static func settings(_ list: String, applyOrientation: Bool = true) throws -> ConversionSettings {
        var settings = ConversionSettings()
        settings.decoding.applyOrientation = applyOrientation
        settings.transformer = try TransformList.parse(list)
        return settings
    }

    @Test(arguments: ["resize:200x200", "resize:300x100:stretch", "resize:200x200,round:8"])
    func aLeadingResizeBecomesTheThumbnailSizeAndGivesTheSamePNGPixels(list: String) throws {
        let data = try PNGCoder().encode(Self.source, as: .png)
        let settings = try Self.settings(list)
        #expect(settings.decodingFoldingLeadingResize.thumbnailPixelSize != nil)
        let folded = try ImageConversion(data, to: .png, settings: settings)
        let reference = try #require(settings.transformer).transform(try PNGCoder().decode(data))
        #expect(folded.image.pixels == reference.pixels)
    }

    @Test(arguments: ["resize:200x200:fill", "resize:2000x2000:upscale", "round:8,resize:200x200", "blur:1"])
    func resizesThatAThumbnailCannotExpressAreNotFolded(list: String) throws {
        #expect(try Self.settings(list).decodingFoldingLeadingResize.thumbnailPixelSize == nil)
    }

    @Test func nothingIsFoldedWhenThePixelsKeepTheirStoredOrientation() throws {
        #expect(try Self.settings("resize:200x200", applyOrientation: false).decodingFoldingLeadingResize.thumbnailPixelSize == nil)
    }

    @Test func anExplicitThumbnailSizeIsKept() throws {
        var settings = try Self.settings("resize:200x200")
        settings.decoding.thumbnailPixelSize = PixelSize(width: 300, height: 300)
        #expect(settings.decodingFoldingLeadingResize.thumbnailPixelSize == PixelSize(width: 300, height: 300))
    }
}
