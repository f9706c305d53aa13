import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageCore
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// imgproxy's `watermark` option with a configured watermark: a 20×10 opaque green image, over the origin's photo
/// (400×300, the left half red (220, 0, 0), the right half blue (0, 0, 220)), answered as PNG.
@Suite struct WatermarkTests {
    static let green = RGBA(red: 0, green: 255, blue: 0)
    static let red = ImgproxyOptionsTests.red, blue = ImgproxyOptionsTests.blue

    /// A PNG of `width` × `height` in `colour`.
    static func png(width: Int, height: Int, _ colour: RGBA) throws -> Data {
        try ImageCodersManager.shared.encode(Image(pixels: PixelBuffer(width: width, height: height, fill: colour)), as: .png, options: .init())
    }

    /// A server whose watermark is the green 20×10 image, with base opacity `opacity`.
    static func run(
        opacity: Double = 1, _ body: @escaping @Sendable (any TestClientProtocol, String) async throws -> Void
    ) async throws {
        let watermark = try ConfiguredImage(data: png(width: 20, height: 10, green))
        try await ServerTestHarness.run(configure: {
            $0.watermark = watermark
            $0.watermarkOpacity = opacity
        }) { client, base, _ in try await body(client, base) }
    }

    static func close(_ actual: RGBA, _ expected: RGBA) -> Bool {
        SyntheticImages.close(actual, expected, tolerance: 14)
    }

    @Test func aWatermarkGoesToItsGravityAndItsOffsetsMoveItInward() async throws {
        try await Self.run { client, base in
            let corner = try await ImgproxyOptionsTests.image(client, base, "wm:1:nowe")
            #expect(corner.size == PixelSize(width: 400, height: 300))
            #expect(Self.close(corner[0, 0], Self.green) && Self.close(corner[19, 9], Self.green))
            #expect(Self.close(corner[25, 5], Self.red) && Self.close(corner[5, 15], Self.red))
            let opposite = try await ImgproxyOptionsTests.image(client, base, "wm:1:soea")
            #expect(Self.close(opposite[399, 299], Self.green) && Self.close(opposite[380, 290], Self.green))
            #expect(Self.close(opposite[375, 295], Self.blue))
            let centre = try await ImgproxyOptionsTests.image(client, base, "wm:1")
            #expect(Self.close(centre[190, 145], Self.green) && Self.close(centre[209, 154], Self.green))
            #expect(Self.close(centre[185, 150], Self.red) && Self.close(centre[215, 150], Self.blue))
            let moved = try await ImgproxyOptionsTests.image(client, base, "wm:1:soea:30:40")
            // From the bottom-right corner, 30 pixels left and 40 up: x 350–369, y 250–259.
            #expect(Self.close(moved[350, 250], Self.green) && Self.close(moved[369, 259], Self.green))
            #expect(Self.close(moved[345, 255], Self.blue) && Self.close(moved[375, 255], Self.blue) && Self.close(moved[360, 265], Self.blue))
            let fraction = try await ImgproxyOptionsTests.image(client, base, "wm:1:nowe:0.5:0.1")
            // Fractions of the result: 200 and 30 pixels.
            #expect(Self.close(fraction[205, 35], Self.green) && Self.close(fraction[195, 35], Self.red))
        }
    }

    @Test func theOpacityIsTheURLsTimesTheConfiguredOne() async throws {
        // Half green over the red half: (110, 128, 0).
        let half = RGBA(red: 110, green: 128, blue: 0)
        try await Self.run { client, base in
            let image = try await ImgproxyOptionsTests.image(client, base, "wm:0.5:nowe")
            #expect(Self.close(image[5, 5], half), "\(image[5, 5])")
            let off = try await ImgproxyOptionsTests.image(client, base, "wm:0:nowe")
            #expect(Self.close(off[5, 5], Self.red))
        }
        try await Self.run(opacity: 0.5) { client, base in
            let image = try await ImgproxyOptionsTests.image(client, base, "wm:1:nowe")
            #expect(Self.close(image[5, 5], half), "\(image[5, 5])")
            let quarter = try await ImgproxyOptionsTests.image(client, base, "wm:0.5:nowe")
            #expect(Self.close(quarter[5, 5], RGBA(red: 165, green: 64, blue: 0)), "\(quarter[5, 5])")
        }
    }

    /// With `re:20:10`, tiles of 40×20 (the watermark and half the spacing on each side) start 20 pixels left of the
    /// result, so that 11 tiles across centre the middle one; 15 rows down fit exactly. The watermark is at x 0–9,
    /// 30–49, 70–89, … and y 5–14, 25–34, ….
    @Test func replicateTilesTheWatermarkWithTheOffsetsAsSpacing() async throws {
        try await Self.run { client, base in
            let tiles = try await ImgproxyOptionsTests.image(client, base, "wm:1:re:20:10")
            for (x, y) in [(0, 5), (9, 14), (30, 5), (49, 14), (70, 25), (190, 145), (195, 150), (395, 285), (395, 294)] {
                #expect(Self.close(tiles[x, y], Self.green), "(\(x), \(y)) \(tiles[x, y])")
            }
            for (x, y) in [(15, 10), (25, 10), (35, 2), (35, 17), (180, 150)] {
                #expect(Self.close(tiles[x, y], Self.red), "(\(x), \(y)) \(tiles[x, y])")
            }
            for (x, y) in [(395, 296), (385, 290), (215, 150)] {
                #expect(Self.close(tiles[x, y], Self.blue), "(\(x), \(y)) \(tiles[x, y])")
            }
        }
    }

    @Test func theScaleFitsTheWatermarkIntoThatShareOfTheResult() async throws {
        try await Self.run { client, base in
            // Into 200×150, keeping 2:1: 200×100.
            let scaled = try await ImgproxyOptionsTests.image(client, base, "wm:1:nowe:0:0:0.5")
            #expect(Self.close(scaled[190, 95], Self.green) && Self.close(scaled[5, 5], Self.green))
            #expect(Self.close(scaled[190, 105], Self.red) && Self.close(scaled[205, 50], Self.blue))
            // A scale whose watermark would pass the pixel limit is refused before it is allocated.
            try await client.execute(uri: "/_/wm:1:nowe:0:0:100000/f:png/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.status == .unprocessableContent)
            }
        }
    }

    @Test func theWatermarkGoesOverThePaddingAsImgproxyAppliesItLast() async throws {
        try await Self.run { client, base in
            let padded = try await ImgproxyOptionsTests.image(client, base, "w:200/pd:10/bg:ffffff/wm:1:nowe")
            #expect(padded.size == PixelSize(width: 220, height: 170))
            #expect(Self.close(padded[2, 2], Self.green) && Self.close(padded[19, 9], Self.green))
            #expect(padded[25, 5] == RGBA(red: 255, green: 255, blue: 255))
        }
    }

    @Test func withoutAConfiguredWatermarkTheOptionHasNoEffect() async throws {
        try await ServerTestHarness.run { client, base, _ in
            let image = try await ImgproxyOptionsTests.image(client, base, "wm:1:nowe")
            #expect(Self.close(image[5, 5], Self.red))
        }
    }

    @Test func emptyWatermarkArgumentsKeepAPresetsValuesAndZeroOpacityTurnsItOff() throws {
        let parser = ImgproxyURLParser(presets: try ProcessingPresets(parsing: ["mark=wm:0.5:soea:10:20:0.2"]))
        let options = try parser.parse(path: "/_/pr:mark/wm:1::::0.3/plain/http://origin.test/a.jpg").options
        #expect(options.watermark == ProcessingOptions.Watermark(opacity: 1, position: .gravity(.southEast), xOffset: 10, yOffset: 20, scale: 0.3))
        #expect(try parser.parse(path: "/_/watermark:0.4:re/plain/http://origin.test/a.jpg").options.watermark?.position == .replicate)
        #expect(try parser.parse(path: "/_/pr:mark/wm:0/plain/http://origin.test/a.jpg").options.watermark == nil)
    }

    @Test func aBadWatermarkArgumentIs400NamingTheOption() async throws {
        try await Self.run { client, base in
            for options in ["wm:2", "wm:1:sm", "wm:1:fp", "wm:x", "wm:1:ce:a", "wm:1:ce:0:0:-1", "wm:1:ce:0:0:0:1"] {
                try await client.execute(uri: "/_/\(options)/plain/\(base)/photo.jpg", method: .get) { response in
                    #expect(response.status == .badRequest, "\(options)")
                    #expect(String(buffer: response.body).contains("'wm'"), "\(options)")
                }
            }
        }
    }

    @Test func theWatermarkSettingsLoadTheImageOnceFromDataPathOrURL() async throws {
        let data = try Self.png(width: 20, height: 10, Self.green)
        let fromData = try ServerSettings(environment: ["IMGPROXY_WATERMARK_DATA": data.base64EncodedString(), "IMGPROXY_WATERMARK_OPACITY": "0.3"])
            .configuration()
        #expect(fromData.watermark?.image.pixelSize == PixelSize(width: 20, height: 10) && fromData.watermarkOpacity == 0.3)
        let directory = try TemporaryDirectory("watermark")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("mark.png")
        try data.write(to: file)
        let fromPath = try ServerSettings(environment: ["IMGPROXY_WATERMARK_PATH": file.path]).configuration()
        #expect(fromPath.watermark?.image.pixels[5, 5] == Self.green)
        let origin = try SourceOrigin()
        try await origin.run { base in
            // The settings fetch the URL synchronously: off the cooperative pool, which the origin's handlers need
            // (with every cooperative thread blocked, as under the thread sanitizer, the fetch waited out its deadline).
            let fromURL = try await WorkerThreads.processing.run {
                try ServerSettings(environment: ["IMGPROXY_WATERMARK_URL": base + "/alpha.png"]).configuration()
            }
            #expect(fromURL.watermark?.image.pixelSize == PixelSize(width: 64, height: 32))
            let missing = await WorkerThreads.processing.run {
                Result { try ServerSettings(environment: ["IMGPROXY_WATERMARK_URL": base + "/status/404"]).configuration() }
            }
            #expect(throws: ServerSettingsError.self) { try missing.get() }
        }
        let report = try ServerSettings(environment: ["IMGPROXY_WATERMARK_PATH": file.path]).report()
        #expect(report.contains { $0.hasPrefix("watermark-data = 20×10 png") })
    }

    @Test func aWatermarkThatCannotBeLoadedStopsTheServerNamingTheSetting() {
        for (name, value) in [
            ("IMGPROXY_WATERMARK_DATA", "not base64 !"), ("IMGPROXY_WATERMARK_DATA", Data("not an image".utf8).base64EncodedString()),
            ("IMGPROXY_WATERMARK_PATH", "/nonexistent/mark.png"), ("IMGPROXY_WATERMARK_URL", "ftp://example.com/mark.png"),
            ("IMGPROXY_WATERMARK_OPACITY", "1.5"),
        ] {
            do {
                _ = try ServerSettings(environment: [name: value]).configuration()
                Issue.record("\(name)=\(value) was accepted")
            } catch {
                #expect(error.description.hasPrefix(name), "\(error)")
            }
        }
    }
}
