import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// The crop, extend, blur, sharpen, rotate, background and smart-gravity options through a live server.
@Suite struct ProcessingOptionsServerTests {
    typealias Colors = SyntheticImages

    /// Runs `body` with an origin serving `quadrants.jpg` (1600×800), `quadrants.png` (200×100) and
    /// `half.png` (40×20, half-transparent green), and an unsigned server that may fetch from it.
    func withServer(
        maximumResultPixelCount: Int = 50_000_000, _ body: @escaping @Sendable (any TestClientProtocol, String) async throws -> Void
    ) async throws {
        let origin = try SyntheticOrigin([
            "quadrants.jpg": Colors.quadrants(width: 1600, height: 800),
            "quadrants.png": Colors.quadrants(width: 200, height: 100),
            "half.png": PixelBuffer(width: 40, height: 20, fill: RGBA(red: 0, green: 200, blue: 0, alpha: 128)),
        ])
        let directory = try TemporaryDirectory("server-options")
        defer { directory.remove() }
        let configuration = ImageServerConfiguration(
            port: 0, sourcePolicy: SourceURLPolicy(addressPolicy: .loopback), cacheDirectory: directory.url,
            maximumResultPixelCount: maximumResultPixelCount)
        let app = try buildApplication(configuration: configuration)
        try await origin.run { base in
            try await app.test(.live) { client in try await body(client, base) }
        }
    }

    /// The image the server answers for `uri`, after checking the status is 200.
    static func image(_ client: any TestClientProtocol, _ uri: String) async throws -> Image {
        try await client.execute(uri: uri, method: .get) { response in
            #expect(response.status == .ok, "\(uri): \(String(buffer: response.body))")
            return try ImageCodersManager.shared.decode(Data(response.body.readableBytesView), options: ImageDecodingOptions())
        }
    }

    @Test func theOptionsThatWere501AreApplied() async throws {
        try await withServer { client, base in
            let cases: [(String, PixelSize)] = [
                ("c:100:50", PixelSize(width: 100, height: 50)), ("rs:fit:100:100/ex:1", PixelSize(width: 100, height: 100)),
                ("bl:2", PixelSize(width: 200, height: 100)), ("sh:1", PixelSize(width: 200, height: 100)),
                ("rot:90", PixelSize(width: 100, height: 200)), ("bg:fff", PixelSize(width: 200, height: 100)),
                ("rs:fill:50:50/g:sm", PixelSize(width: 50, height: 50)),
            ]
            for (options, size) in cases {
                let image = try await Self.image(client, "/_/\(options)/plain/\(base)/quadrants.png")
                #expect(image.pixelSize == size, "\(options)")
            }
        }
    }

    @Test func aCropOfAShrunkJPEGCutsTheSameRegionAsAPixelCropOfTheFullImage() async throws {
        try await withServer { client, base in
            // A relative crop lets the JPEG decode at 1/8 scale; a crop in pixels needs it whole.
            for crop in ["c:0.5:0.5:soea", "c:800:400:soea"] {
                let image = try await Self.image(client, "/_/\(crop)/rs:fit:100:100/f:png/plain/\(base)/quadrants.jpg")
                #expect(image.pixelSize == PixelSize(width: 100, height: 50), "\(crop)")
                for (x, y) in [(2, 2), (50, 25), (97, 47)] {
                    #expect(Colors.close(image.pixels[x, y], Colors.yellow, tolerance: 20), "\(crop) \(x),\(y): \(image.pixels[x, y])")
                }
            }
        }
    }

    @Test func anExtendedJPEGIsPaddedWithWhiteAndATransparentPNGAsJPEGIsFlattenedOntoWhite() async throws {
        try await withServer { client, base in
            let padded = try await Self.image(client, "/_/rs:fit:200:200/ex:1/plain/\(base)/quadrants.jpg")
            #expect(padded.format == .jpeg && padded.pixelSize == PixelSize(width: 200, height: 200))
            #expect(Colors.close(padded.pixels[100, 10], .white) && Colors.close(padded.pixels[100, 190], .white))
            #expect(Colors.close(padded.pixels[20, 60], Colors.red, tolerance: 20))
            let flattened = try await Self.image(client, "/_/f:jpg/plain/\(base)/half.png")
            #expect(Colors.close(flattened.pixels[20, 10], RGBA(red: 127, green: 227, blue: 127)))
        }
    }

    @Test func aBackgroundFillsTheExtensionAndTheTransparencyOfAPNG() async throws {
        try await withServer { client, base in
            let image = try await Self.image(client, "/_/w:80/h:20/ex:1:we/bg:0000ff/plain/\(base)/half.png")
            #expect(image.format == .png && !image.hasAlpha)
            #expect(image.pixels[60, 10] == RGBA(red: 0, green: 0, blue: 255))
            #expect(Colors.close(image.pixels[10, 10], RGBA(red: 0, green: 100, blue: 127), tolerance: 1))
        }
    }

    @Test func anExtensionBeyondTheResultPixelLimitIs422() async throws {
        try await withServer(maximumResultPixelCount: 30_000) { client, base in
            try await client.execute(uri: "/_/w:1000/h:1000/ex:1/plain/\(base)/quadrants.png", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body) == "the result would be larger than the server allows\n")
            }
            _ = try await Self.image(client, "/_/w:200/h:150/ex:1/plain/\(base)/quadrants.png")
        }
    }
}
