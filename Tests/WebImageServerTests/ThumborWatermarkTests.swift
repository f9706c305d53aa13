import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
@testable import WebImageServer

/// thumbor's `watermark` filter: its arguments as thumbor reads them, its placement and compositing checked
/// against thumbor 7.8's own results (``ThumborFilterVectors``), its limits, and the server fetching the watermark.
///
/// Tolerances: 0 where no resize is involved (the placement and thumbor's C compositing are ported operation by
/// operation); 3 levels with a ratio, whose resize is our Lanczos-3 where thumbor's is Pillow's.
@Suite struct ThumborWatermarkTests {
    typealias Images = SyntheticFilterImages
    typealias Vectors = ThumborFilterVectors

    /// The 4×3 watermark of the vector script: colour ramps and an alpha ramp from 60 to 255.
    static let mark = SyntheticImages.pattern(width: 4, height: 3) { x, y in
        RGBA(red: UInt8((x * 60 + 20) % 256), green: UInt8((y * 80 + 50) % 256), blue: UInt8((x * y * 30 + 100) % 256),
             alpha: UInt8(min(255, 60 + x * 50 + y * 30)))
    }

    /// `url`'s filters (`watermark(wm.png,…)` among them) applied to `pixels` with ``mark`` as `wm.png`.
    func watermarked(_ pixels: PixelBuffer, _ filters: String) throws -> PixelBuffer {
        let request = try ThumborURLParser().parse(path: "/unsafe/filters:\(filters)/example.com/a.jpg")
        var options = ProcessingOptions()
        options.pixelFilters = ThumborMapping(request).options.pixelFilters
        var transformer = ProcessingTransformer(options: options, maximumPixelCount: 1_000_000)
        transformer.thumborWatermarks = ["http://wm.png": Self.mark]
        return try transformer.applyPixelFilters(pixels)
    }

    func expect(_ pixels: PixelBuffer, matches hex: String, tolerance: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) {
        PixelFilterTests().expect(pixels, matches: hex, tolerance: tolerance, sourceLocation: sourceLocation)
    }

    // MARK: thumbor's results

    @Test func aPixelPositionCountsFromTheLeftAndTopOrWithAMinusFromTheRightAndBottom() throws {
        expect(try watermarked(Images.opaque, "watermark(wm.png,2,1,0)"), matches: Vectors.watermarkAt2x1)
        expect(try watermarked(Images.opaque, "watermark(wm.png,-1,-0,30)"), matches: Vectors.watermarkFromTheEnds)
    }

    @Test func centerCentresAndAWatermarkMayHangOffTheImage() throws {
        expect(try watermarked(Images.opaque, "watermark(wm.png,center,center,50)"), matches: Vectors.watermarkCentred)
        expect(try watermarked(Images.opaque, "watermark(wm.png,-9,2,0)"), matches: Vectors.watermarkHangingOffTheLeft)
    }

    @Test func aPercentageIsOfTheImagesSide() throws {
        expect(try watermarked(Images.opaque, "watermark(wm.png,30p,-20p,10)"), matches: Vectors.watermarkPercentages)
    }

    @Test func repeatTilesAlongItsAxisWithThumborsSpacing() throws {
        expect(try watermarked(Images.opaque, "watermark(wm.png,repeat,repeat,20)"), matches: Vectors.watermarkRepeated)
        expect(try watermarked(Images.opaque, "watermark(wm.png,repeat,2,0)"), matches: Vectors.watermarkRepeatedAcross)
        expect(try watermarked(Images.opaque, "watermark(wm.png,center,repeat,0)"), matches: Vectors.watermarkRepeatedDown)
    }

    @Test func moreThanAHundredTilesAreLimitedToSixEachWayAsThumborLimitsThem() throws {
        for filter in ["watermark(wm.png,repeat,repeat,0)", "watermark(wm.png,repeat,-5,10)"] {
            let expected = try #require(Vectors.digests[filter])
            #expect(PixelFilterTests.digest(try watermarked(Images.large, filter)) == expected, "\(filter)")
        }
    }

    @Test func transparentImagePixelsAreCompositedAsThumborsCDoes() throws {
        expect(try watermarked(Images.alpha, "watermark(wm.png,1,1,25)"), matches: Vectors.watermarkOnAlpha)
    }

    @Test func ratiosFitTheWatermarkIntoAShareOfTheImage() throws {
        let byWidth = try watermarked(Images.opaque, "watermark(wm.png,0,0,0,50)")
        expect(byWidth, matches: Vectors.watermarkWidthRatio, tolerance: 3)
        expect(try watermarked(Images.opaque, "watermark(wm.png,1,0,0,none,100)"), matches: Vectors.watermarkHeightRatio, tolerance: 3)
        #expect(ThumborWatermarkOverlay.fittedSize(of: PixelSize(width: 4, height: 3), in: PixelSize(width: 10, height: 8),
                                                   widthRatio: 0.5, heightRatio: nil) == (5, 4), "3 × 5 / 4 = 3.75 rounds to 4")
        #expect(ThumborWatermarkOverlay.fittedSize(of: PixelSize(width: 40, height: 20), in: PixelSize(width: 100, height: 80),
                                                   widthRatio: 0.5, heightRatio: 0.1) == (16, 8), "the tighter box wins")
    }

    @Test func watermarksApplyInTheURLsOrder() throws {
        expect(try watermarked(Images.opaque, "watermark(wm.png,0,0,0):watermark(wm.png,-0,-0,40)"), matches: Vectors.watermarkTwice)
    }

    // MARK: arguments

    @Test func theArgumentsAreReadInThumborsForms() throws {
        let full = try #require(ThumborWatermark(arguments: ["'h.example/w.png'", "-10p", "center", "30", "none", "25"]))
        #expect(full.url == "http://h.example/w.png")
        #expect(full.x == .percent(10, fromEnd: true) && full.y == .center && full.transparency == 30)
        #expect(full.widthRatio == nil && full.heightRatio == 0.25)
        #expect(ThumborWatermark(arguments: ["w.png", "repeat", "-0", "0", "0"])?.widthRatio == nil, "a ratio of 0 is none")
        #expect(ThumborWatermark(arguments: ["w.png", "1", "2", "250"])?.transparency == 100, "anything from 100 is invisible")
        #expect(ThumborWatermark(arguments: ["w.png", "99999999999999999999999", "2", "0"])?.x == .pixels(ThumborWatermark.largestPosition, fromEnd: false))
        for unread in [["w.png", "1", "2"], ["w.png", "left", "2", "0"], ["w.png", "1", "2", "-5"], ["w.png", "1p5", "2", "0"],
                       ["w.png", "1", "2", "0", "half"], ["", "1", "2", "0"]] {
            #expect(ThumborWatermark(arguments: unread) == nil, "\(unread)")
        }
    }

    @Test func aWatermarkThumborCannotDrawIsUnusable() throws {
        #expect(throws: ThumborWatermarkOverlay.Unusable.self, "fitted to no pixel: thumbor answers 500") {
            try watermarked(Images.opaque, "watermark(wm.png,0,0,0,1)")
        }
        #expect(throws: ThumborWatermarkOverlay.Unusable.self, "beyond a C int: thumbor answers 500") {
            try watermarked(Images.opaque, "watermark(wm.png,99999999999,0,0)")
        }
    }

    @Test func aNegativeRatioIsRefusedAndAHugeOneIsCheckedBeforeItIsAllocated() throws {
        #expect(throws: ImageProcessingError.self) { try watermarked(Images.opaque, "watermark(wm.png,0,0,0,-20)") }
        #expect(throws: ImageProcessingError.self) { try watermarked(Images.opaque, "watermark(wm.png,0,0,0,99999999999)") }
    }

    @Test func aFilterWhoseImageWasNotFetchedIsAnError() throws {
        var options = ProcessingOptions()
        options.pixelFilters = [.watermark(ThumborWatermark(url: "http://other.png", x: .center, y: .center, transparency: 0))]
        #expect(throws: ImageProcessingError.self) {
            try ProcessingTransformer(options: options, maximumPixelCount: 1_000_000).applyPixelFilters(Images.opaque)
        }
    }

    // MARK: the server

    @Test func theServerFetchesTheWatermarkAndAnswersAsThumborWhenItCannot() async throws {
        try await ThumborServerTests().run { client, host in
            // alpha.png is green at alpha 128 (64×32); the photo's left half is red.
            try await client.execute(uri: "/unsafe/200x150/filters:watermark(\(host)/alpha.png,10,20,0):format(png)/\(host)/photo.jpg", method: .get) { response in
                #expect(response.status == .ok)
                let pixels = try #require(try ThumborServerTests().image(response).frames.first?.pixels)
                #expect(pixels.size == PixelSize(width: 200, height: 150))
                // Over the watermark: the photo's red at 127/255 under green 200 at 128/255, truncated (thumbor's C).
                let inside = pixels[30, 40], outside = pixels[5, 5]
                #expect(outside.red > 200 && outside.green < 5, "\(outside)")
                #expect(Int(inside.red) == Int(Double(outside.red) * 127 / 255) && inside.green == 100, "\(inside) \(outside)")
            }
            try await client.execute(uri: "/unsafe/filters:watermark(\(host)/status/404,0,0,0)/\(host)/photo.jpg", method: .get) { response in
                #expect(response.status == .badRequest, "a watermark that cannot be loaded")
            }
            try await client.execute(uri: "/unsafe/filters:watermark(\(host)/broken.jpg,0,0,0)/\(host)/photo.jpg", method: .get) { response in
                #expect(response.status == .internalServerError, "a watermark that cannot be decoded")
            }
            try await client.execute(uri: "/unsafe/filters:watermark(\(host)/alpha.png,0,0,0,-20)/\(host)/photo.jpg", method: .get) { response in
                #expect(response.status == .badRequest, "a negative ratio")
            }
        }
    }

    @Test func aWatermarkFromARefusedSourceIsRefusedBeforeTheSourceIsFetched() async throws {
        let prefix = try SourcePrefix("http://127.0.0.1")
        try await ServerTestHarness.run(configure: { configuration in
            configuration.dialect = .thumbor
            configuration.thumbor.allowsUnsafeURLs = true
            configuration.sourcePolicy = SourceURLPolicy(allowedPrefixes: [prefix], addressPolicy: .loopback)
        }) { client, base, origin in
            let host = base.dropFirst("http://".count)
            try await client.execute(uri: "/unsafe/filters:watermark(other.example/w.png,0,0,0)/\(host)/photo.jpg", method: .get) { response in
                #expect(response.status == .badRequest)
            }
            #expect(await origin.requests.count("/photo.jpg") == 0)
        }
    }
}
