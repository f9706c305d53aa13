import Foundation
import Testing
@testable import WebImageServer

/// thumbor's URL grammar (libthumbor's `Url.regex`), its signatures and the mapping of its filters onto options.
struct ThumborURLParserTests {
    let parser = ThumborURLParser()

    @Test func everyPartOfTheGrammarIsReadInItsPlace() throws {
        let request = try parser.parse(path: "/unsafe/debug/meta/trim:bottom-right:12/10x20:110x220/adaptive-full-fit-in/-300x-200/left/bottom/smart/filters:quality(70):format(webp)/s.glbimg.com/es/ge/f/original.jpg")
        #expect(request.authority == .unsafe)
        #expect(request.debug && request.meta && request.smart)
        #expect(request.trim == ThumborRequest.Trim(corner: .bottomRight, tolerance: 12))
        #expect(request.crop == ThumborRequest.Rectangle(left: 10, top: 20, right: 110, bottom: 220))
        #expect(request.fit == .fullFitIn && request.adaptive)
        #expect(request.width == .pixels(300) && request.height == .pixels(200))
        #expect(request.flipHorizontal && request.flipVertical)
        #expect(request.horizontalAlignment == .left && request.verticalAlignment == .bottom)
        #expect(request.filters == [ThumborFilter(name: "quality", arguments: ["70"]), ThumborFilter(name: "format", arguments: ["webp"])])
        #expect(request.imageURL == "http://s.glbimg.com/es/ge/f/original.jpg")
    }

    @Test func theDocumentedExampleWithoutOptionalPartsKeepsThumborsDefaults() throws {
        let request = try parser.parse(path: "/unsafe/300x200/smart/thumbor.readthedocs.io/en/latest/_images/logo-thumbor.png")
        #expect(request.fit == .none && !request.adaptive && request.crop == nil && request.trim == nil)
        #expect(request.horizontalAlignment == .center && request.verticalAlignment == .middle)
        #expect(request.imageURL == "http://thumbor.readthedocs.io/en/latest/_images/logo-thumbor.png")
    }

    @Test func theImageStartsAtTheFirstSegmentNoPartReadsSoSizesInItsPathStayThere() throws {
        let request = try parser.parse(path: "/unsafe/fit-in/100x100/cdn.example/300x200/a.jpg")
        #expect(request.width == .pixels(100))
        #expect(request.imageURL == "http://cdn.example/300x200/a.jpg")
    }

    @Test func aPercentEncodedImageURLIsDecodedAndRequotedAsThumborsLoaderDoes() throws {
        #expect(try parser.parse(path: "/unsafe/https%3A%2F%2Fexample.com%2Fa%20b.jpg").imageURL == "https://example.com/a%20b.jpg")
        #expect(try parser.parse(path: "/unsafe/http://example.com/a.jpg?v=2").imageURL == "http://example.com/a.jpg?v=2")
        // A URL still holding escapes after the router decoded it was encoded twice: it is kept as it is.
        #expect(try parser.parse(path: "/unsafe/example.com/a%2520b.jpg").imageURL == "http://example.com/a%20b.jpg")
    }

    @Test func origAndZeroSidesAndFlipsWithoutSizeAreRead() throws {
        let request = try parser.parse(path: "/unsafe/-origx-0/example.com/a.jpg")
        #expect(request.width == .original && request.height == .pixels(0))
        #expect(request.flipHorizontal && request.flipVertical)
    }

    @Test func aManualCropOfZerosIsNoCropAsThumborReadsIt() throws {
        #expect(try parser.parse(path: "/unsafe/0x0:0x0/example.com/a.jpg").crop == nil)
    }

    @Test func aPathWithNeitherSignatureNorUnsafeIsRefused() {
        #expect(throws: ThumborURLError.self) { try parser.parse(path: "/a.jpg") }
        #expect(throws: ThumborURLError.self) { try parser.parse(path: "/unsafe/") }
        #expect(throws: ThumborURLError.self) { try parser.parse(path: "/unsafe/99999999999999999999x1/a.jpg") }
    }

    @Test func theSignatureSegmentIsTheFirstAndCoversTheRestOfTheRawPath() throws {
        let request = try parser.parse(path: "/bepGBkN-eOEpXABFMyiAHiFaBgQ%3D/300x200/127.0.0.1:18777/landscape.jpg")
        #expect(request.authority == .signature("bepGBkN-eOEpXABFMyiAHiFaBgQ="))
        #expect(request.signedPath == "300x200/127.0.0.1:18777/landscape.jpg")
    }

    @Test func filtersSplitAtCloseParenColonSoAWatermarkURLKeepsItsColons() throws {
        let request = try parser.parse(path: "/unsafe/filters:watermark(http://w.example/w.png,10,-10,50):blur(4,%202)/example.com/a.jpg")
        #expect(request.filters == [
            ThumborFilter(name: "watermark", arguments: ["http://w.example/w.png", "10", "-10", "50"]),
            ThumborFilter(name: "blur", arguments: ["4", "2"]),
        ])
    }
}

/// libthumbor's HMAC-SHA1 signatures.
struct ThumborSignatureVerifierTests {
    // Made by libthumbor: CryptoURL(key="secret-key").generate(image_url="127.0.0.1:18777/landscape.jpg", width=300, height=200)
    let path = "300x200/127.0.0.1:18777/landscape.jpg"
    let libthumbors = "bepGBkN-eOEpXABFMyiAHiFaBgQ="

    @Test func theSignatureIsLibthumborsURLSafeBase64OfHMACSHA1WithPadding() {
        #expect(ThumborSignatureVerifier.signature(for: path, key: "secret-key") == libthumbors)
        #expect(ThumborSignatureVerifier(key: "secret-key").isValid(signature: libthumbors, signedPath: path))
    }

    @Test func aForgedTruncatedUnpaddedOrOtherwiseKeyedSignatureIsRefused() {
        let verifier = ThumborSignatureVerifier(key: "secret-key")
        #expect(!verifier.isValid(signature: "A" + libthumbors.dropFirst(), signedPath: path))
        #expect(!verifier.isValid(signature: String(libthumbors.prefix(20)), signedPath: path))
        #expect(!verifier.isValid(signature: String(libthumbors.dropLast()), signedPath: path))
        #expect(!verifier.isValid(signature: libthumbors, signedPath: "301x200/127.0.0.1:18777/landscape.jpg"))
        #expect(!ThumborSignatureVerifier(key: "other").isValid(signature: libthumbors, signedPath: path))
        #expect(!ThumborSignatureVerifier(key: nil).isValid(signature: libthumbors, signedPath: path))
    }
}

/// thumbor's filters onto ``ProcessingOptions``.
struct ThumborMappingTests {
    func mapping(_ filters: String, size: String = "300x200") throws -> ThumborMapping {
        ThumborMapping(try ThumborURLParser().parse(path: "/unsafe/\(size)/filters:\(filters)/example.com/a.jpg"))
    }

    @Test func qualityFormatAndCachingFiltersSetTheirOptions() throws {
        let mapped = try mapping("quality(55):format(jpeg):max_age(60):max_bytes(9000):strip_icc():strip_exif()")
        #expect(mapped.options.quality == 55 && mapped.options.format == .jpeg && mapped.formatFromFilter)
        #expect(mapped.maxAge == 60 && mapped.options.maximumBytes == 9000)
        #expect(mapped.options.stripColorProfile == true && mapped.options.stripMetadata == true)
        #expect(try mapping("format(heif)").options.format == .heic)
        #expect(try mapping("format(bmp)").options.format == nil)
    }

    @Test func thumborsCounterClockwiseRotationIsTheClockwiseInverse() throws {
        #expect(try mapping("rotate(90)").options.rotate == 270)
        #expect(try mapping("rotate(-90)").options.rotate == 90)
        #expect(try mapping("rotate(90):rotate(180)").options.rotate == 90)
        #expect(try mapping("rotate(45)").options.rotate == 0)
    }

    @Test func fillPadsWithItsColourAndBackgroundColourFlattens() throws {
        let fill = try mapping("fill(ff0000)").options
        #expect(fill.extend && fill.background == RGBColor(red: 255, green: 0, blue: 0))
        #expect(try mapping("fill(blue)").options.background == RGBColor(red: 0, green: 0, blue: 255))
        let transparent = try mapping("fill(transparent)").options
        #expect(transparent.extend && transparent.background == nil)
        #expect(try mapping("background_color(white)").options.background == RGBColor(red: 255, green: 255, blue: 255))
    }

    @Test func blurTakesSigmaOrTheRadiusAndSharpenTheRadius() throws {
        #expect(try mapping("blur(3)").options.blur == 3)
        #expect(try mapping("blur(4,2)").options.blur == 2)
        #expect(try mapping("blur(0)").options.blur == nil)
        #expect(try mapping("sharpen(2,1.5,true)").options.sharpen == 1.5)
    }

    @Test func geometryFiltersGoToThumborsGeometry() throws {
        let geometry = try #require(try mapping("no_upscale():upscale():stretch():proportion(0.5):focal(10x20:30x40)").options.thumborGeometry)
        #expect(geometry.noUpscale && geometry.upscale && geometry.stretch && geometry.proportion == 0.5)
        #expect(geometry.focalPoints == [ThumborRequest.Rectangle(left: 10, top: 20, right: 30, bottom: 40)])
    }

    @Test func extractFocalTakesTheInnerThumborURLsCropAsFocalPointAndItsImage() throws {
        let request = try ThumborURLParser().parse(
            path: "/unsafe/100x100/filters:extract_focal()/thumbor.example/unsafe/10x20:110x220/inner.example/a.jpg")
        let mapped = ThumborMapping(request)
        #expect(mapped.imageURL == "http://inner.example/a.jpg")
        #expect(mapped.options.thumborGeometry?.focalPoints == [ThumborRequest.Rectangle(left: 10, top: 20, right: 110, bottom: 220)])
    }

    @Test func pixelFiltersBecomePixelOperationsInTheURLsOrderAndUnknownOrUnreadableOnesAreIgnored() throws {
        let mapped = try mapping(
            "brightness(10):grayscale():fill(auto):nosuch(1):quality(high):round_corner(20|10,255,0,255,1):contrast(500)"
                + ":noise(30,7):convolution(1;2;1;2;4;2;1;2;1,3,false):saturation(1.5):rgb(-10,0,10):equalize():watermark(a.png,0,0,50)")
        #expect(mapped.options.pixelFilters == [
            .brightness(10), .grayscale, .fill(PixelFilter.Fill(background: .average)),
            .roundCorner(PixelFilter.RoundCorner(horizontalRadius: 20, verticalRadius: 10, color: RGBColor(red: 255, green: 0, blue: 255), transparent: true)),
            .noise(amount: 30, seed: 7), .convolution(PixelFilter.Convolution(items: [1, 2, 1, 2, 4, 2, 1, 2, 1], columns: 3, normalize: false)),
            .saturation(1.5), .rgb(red: -10, green: 0, blue: 10), .equalize,
            .watermark(ThumborWatermark(url: "http://a.png", x: .pixels(0, fromEnd: false), y: .pixels(0, fromEnd: false), transparency: 50)),
        ], "contrast(500) is outside thumbor's range: ignored")
        #expect(mapped.options.quality == nil)
    }

    @Test func theURLsSizesAndFlipsAreTheOptionsAndTheGeometrys() throws {
        let mapped = ThumborMapping(try ThumborURLParser().parse(path: "/unsafe/trim:bottom-right:5/fit-in/-120x0/right/smart/example.com/a.jpg"))
        #expect(mapped.options.width == 120 && mapped.options.height == 0 && mapped.options.flipHorizontal)
        #expect(mapped.options.trim?.threshold == 5 && mapped.options.trim?.colorFromBottomRight == true)
        #expect(mapped.options.gravity.anchor == .smart)
        let geometry = try #require(mapped.options.thumborGeometry)
        #expect(geometry.fit == .fitIn && geometry.horizontalAlignment == .right && geometry.smart)
    }
}
