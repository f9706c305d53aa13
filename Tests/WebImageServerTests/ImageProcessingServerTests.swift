import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// The server end to end: a real origin on loopback, the server's manager, resizing and encoding.
@Suite struct ImageProcessingServerTests {
    /// An unsigned server that may fetch from loopback (refused by default), its cache in `directory`.
    func configuration(_ directory: TemporaryDirectory, maximumSourcePixelCount: Int = 50_000_000) -> ImageServerConfiguration {
        var configuration = ImageServerConfiguration(
            port: 0, sourcePolicy: SourceURLPolicy(addressPolicy: .loopback), cacheDirectory: directory.url,
            maximumSourcePixelCount: maximumSourcePixelCount)
        configuration.cacheMinimumUses = 1  // cached from the first request, as the tests of the caches expect
        return configuration
    }

    /// Runs `body` with an origin and a live server; `body` gets the server's client and the origin's base URL.
    func withServer(
        maximumSourcePixelCount: Int = 50_000_000, _ body: @escaping @Sendable (any TestClientProtocol, String, SourceOrigin) async throws -> Void
    ) async throws {
        let origin = try SourceOrigin()
        let directory = try TemporaryDirectory("server")
        defer { directory.remove() }
        let app = try buildApplication(configuration: configuration(directory, maximumSourcePixelCount: maximumSourcePixelCount))
        try await origin.run { base in
            try await app.test(.live) { client in try await body(client, base, origin) }
        }
    }

    static func decoded(_ body: ByteBuffer) throws -> Image {
        try ImageCodersManager.shared.decode(Data(body.readableBytesView), options: ImageDecodingOptions())
    }

    @Test func aJPEGResizedWithFitComesBackAsAJPEGOfTheFittedSizeWithCachingHeaders() async throws {
        try await withServer { client, base, _ in
            try await client.execute(uri: "/_/rs:fit:100:100/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(response.headers[.contentLength] == "\(response.body.readableBytes)")
                #expect(response.headers[.cacheControl] == "public, max-age=3600")
                let image = try Self.decoded(response.body)
                #expect(image.format == .jpeg)
                #expect(image.pixelSize == PixelSize(width: 100, height: 75))
            }
        }
    }

    @Test func theFormatOptionAndTheExtensionChooseTheEncoder() async throws {
        try await withServer { client, base, _ in
            let cases: [(String, String, ImageFormat)] = [
                ("/_/rs:fit:100:100/f:png/plain/\(base)/photo.jpg", "image/png", .png),
                ("/_/rs:fit:100:100/f:webp/plain/\(base)/photo.jpg", "image/webp", .webp),
                ("/_/w:50/plain/\(base)/photo.jpg@webp", "image/webp", .webp),
            ]
            for (uri, type, format) in cases {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    #expect(response.headers[.contentType] == type, "\(uri)")
                    let image = try Self.decoded(response.body)
                    #expect(image.format == format, "\(uri)")
                    #expect(image.pixelSize.width == (uri.contains("w:50") ? 50 : 100), "\(uri)")
                }
            }
        }
    }

    @Test func withoutAFormatTheSourceFormatIsKept() async throws {
        try await withServer { client, base, _ in
            try await client.execute(uri: "/_/w:32/plain/\(base)/alpha.png", method: .get) { response in
                #expect(response.headers[.contentType] == "image/png")
                let image = try Self.decoded(response.body)
                #expect(image.pixelSize == PixelSize(width: 32, height: 16))
                #expect(image.hasAlpha)
            }
        }
    }

    @Test func fillCropsToTheRequestedSizeWhereTheGravityPoints() async throws {
        try await withServer { client, base, _ in
            // The source's left half is red, its right half blue; a 60×60 fill scales it to 80×60 (red up to
            // x = 40) and cuts 60×60 of it: from x = 0 (west) column 30 is red, from x = 20 (east) it is blue.
            for (gravity, red) in [("we", true), ("ea", false)] {
                try await client.execute(uri: "/_/rs:fill:60:60/g:\(gravity)/f:png/plain/\(base)/photo.jpg", method: .get) { response in
                    let image = try Self.decoded(response.body)
                    #expect(image.pixelSize == PixelSize(width: 60, height: 60))
                    let pixels = image.pixels.bytes
                    let (r, b) = (pixels[30 * 4], pixels[30 * 4 + 2])  // column 30 of the top row
                    #expect(red ? r > 150 && b < 80 : b > 150 && r < 80, "g:\(gravity) r=\(r) b=\(b)")
                }
            }
        }
    }

    @Test func aSourceIsFetchedOnceAndServedFromTheCacheAfterwards() async throws {
        try await withServer { client, base, origin in
            for width in [40, 40, 60] {
                try await client.execute(uri: "/_/w:\(width)/plain/\(base)/photo.jpg", method: .get) { response in
                    #expect(response.status == .ok)
                }
            }
            #expect(await origin.requests.count("/photo.jpg") == 1)
        }
    }

    @Test func aSourceThatIs404UpstreamIs404WithoutEchoingTheURL() async throws {
        try await withServer { client, base, _ in
            try await client.execute(uri: "/_/w:10/plain/\(base)/status/404", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body) == "the source image was not found\n")
                #expect(response.headers[.cacheControl] == "no-cache")
            }
            // A second time too: a 404 does not block the URL (the manager's failed-URL list is bypassed).
            try await client.execute(uri: "/_/w:10/plain/\(base)/status/404", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func aSourceThatFailsOtherwiseIs502() async throws {
        try await withServer { client, base, _ in
            for path in ["status/500", "status/403"] {
                try await client.execute(uri: "/_/w:10/plain/\(base)/\(path)", method: .get) { response in
                    #expect(response.status == .badGateway, "\(path)")
                    #expect(String(buffer: response.body) == "the source image could not be loaded\n")
                    #expect(response.headers[.cacheControl] == "no-cache")
                }
            }
        }
    }

    @Test func aSourceOverThePixelLimitIs422EvenWhenShrinkOnLoadWouldDecodeItSmall() async throws {
        // 400×300 = 120,000 pixels; the 1/8 decode a 20×20 fit allows would be 50×38, under the limit.
        try await withServer(maximumSourcePixelCount: 100_000) { client, base, _ in
            for options in ["w:20/h:20", "rs:fill:20:20", "w:0"] {
                try await client.execute(uri: "/_/\(options)/plain/\(base)/photo.jpg", method: .get) { response in
                    #expect(response.status == .unprocessableContent, "\(options)")
                    #expect(String(buffer: response.body) == "the source image has more than 100000 pixels\n")
                    #expect(response.headers[.cacheControl] == "no-cache")
                }
            }
        }
    }
}
