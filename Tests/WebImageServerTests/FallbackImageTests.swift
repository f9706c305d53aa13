import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// imgproxy's fallback image: served, processed with the request's options, when the source cannot be fetched or
/// decoded. Here a 30×20 opaque green PNG.
@Suite struct FallbackImageTests {
    static let green = WatermarkTests.green

    static func run(
        configure: @escaping @Sendable (inout ImageServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (any TestClientProtocol, String, SourceOrigin) async throws -> Void
    ) async throws {
        let fallback = try ConfiguredImage(data: WatermarkTests.png(width: 30, height: 20, green))
        try await ServerTestHarness.run(configure: {
            $0.fallbackImage = fallback
            configure(&$0)
        }, body)
    }

    static func pixels(_ body: ByteBuffer) throws -> PixelBuffer {
        try ImageCodersManager.shared.decode(Data(body.readableBytesView), options: .init()).pixels
    }

    @Test func aSourceThatCannotBeFetchedGetsTheFallbackProcessedWithTheRequestsOptionsAndStatus200() async throws {
        try await Self.run { client, base, _ in
            for source in ["status/404", "status/500", "broken.jpg"] {
                try await client.execute(uri: "/_/w:15/f:png/plain/\(base)/\(source)", method: .get) { response in
                    #expect(response.status == .ok, "\(source)")
                    #expect(response.headers[.contentType] == "image/png")
                    #expect(response.headers[.cacheControl] == "public, max-age=3600")
                    #expect(response.headers[.eTag] == nil && response.headers[.lastModified] == nil)
                    let pixels = try Self.pixels(response.body)
                    #expect(pixels.size == PixelSize(width: 15, height: 10) && pixels[7, 5] == Self.green, "\(source)")
                }
            }
            // A source that works is served as usual.
            try await client.execute(uri: "/_/w:40/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.status == .ok && response.headers[.eTag] != nil)
                let pixels = try Self.pixels(response.body)
                #expect(pixels.size == PixelSize(width: 40, height: 30))
            }
        }
    }

    @Test func theFallbackHasTheConfiguredStatusAndMaxAgeOrTheErrorsStatus() async throws {
        try await Self.run(configure: { $0.fallbackImageStatus = 404; $0.fallbackImageMaxAge = 60 }) { client, base, _ in
            try await client.execute(uri: "/_/plain/\(base)/status/500", method: .get) { response in
                #expect(response.status == .notFound && response.headers[.cacheControl] == "public, max-age=60")
                let pixels = try Self.pixels(response.body)
                #expect(pixels.size == PixelSize(width: 30, height: 20))
            }
        }
        try await Self.run(configure: { $0.fallbackImageStatus = nil }) { client, base, _ in
            try await client.execute(uri: "/_/plain/\(base)/status/404", method: .get) { response in
                #expect(response.status == .notFound)
                let pixels = try Self.pixels(response.body)
                #expect(pixels[0, 0] == Self.green)
            }
            try await client.execute(uri: "/_/plain/\(base)/broken.jpg", method: .get) { response in
                #expect(response.status == .unprocessableContent)
                let pixels = try Self.pixels(response.body)
                #expect(pixels[0, 0] == Self.green)
            }
        }
    }

    /// Only the source and its decoding fall back: a bad option, a refused source or a bad signature keep their error.
    @Test func errorsBeforeTheSourceDoNotFallBack() async throws {
        let allowed = try SourcePrefix("https://allowed.example/")
        try await Self.run(configure: { $0.sourcePolicy = SourceURLPolicy(allowedPrefixes: [allowed], addressPolicy: .loopback) }) { client, base, _ in
            try await client.execute(uri: "/_/w:abc/plain/\(base)/status/404", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/_/plain/\(base)/status/404", method: .get) { #expect($0.status == .forbidden) }
        }
    }

    /// A fallback is not stored as the result: once the source works, its own image is served.
    @Test func aFallbackIsNotCachedAsTheResult() async throws {
        try await Self.run { client, base, origin in
            try await client.execute(uri: "/_/w:20/plain/\(base)/status/503", method: .get) { response in
                let pixels = try Self.pixels(response.body)
                #expect(response.status == .ok && pixels[0, 0] == Self.green)
            }
            let first = await origin.requests.count("/status/503")
            try await client.execute(uri: "/_/w:20/plain/\(base)/status/503", method: .get) { #expect($0.status == .ok) }
            #expect(await origin.requests.count("/status/503") > first)
        }
    }

    @Test func theFallbackSettingsLoadTheImageAndReadTheStatusAndTTL() throws {
        let data = try WatermarkTests.png(width: 30, height: 20, Self.green)
        let configuration = try ServerSettings(environment: [
            "IMGPROXY_FALLBACK_IMAGE_DATA": data.base64EncodedString(), "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "404",
            "IMGPROXY_FALLBACK_IMAGE_TTL": "30",
        ]).configuration()
        #expect(configuration.fallbackImage?.image.pixelSize == PixelSize(width: 30, height: 20))
        #expect(configuration.fallbackImageStatus == 404 && configuration.fallbackImageMaxAge == 30)
        let defaults = try ServerSettings(environment: ["IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "0"]).configuration()
        #expect(defaults.fallbackImageStatus == nil && defaults.fallbackImage == nil && ImageServerConfiguration().fallbackImageStatus == 200)
        for (name, value) in [("IMGPROXY_FALLBACK_IMAGE_HTTP_CODE", "99"), ("IMGPROXY_FALLBACK_IMAGE_PATH", "/nonexistent.png"),
                              ("IMGPROXY_FALLBACK_IMAGE_TTL", "soon")] {
            #expect(throws: ServerSettingsError.self, "\(name)") { _ = try ServerSettings(environment: [name: value]).configuration() }
        }
    }
}
