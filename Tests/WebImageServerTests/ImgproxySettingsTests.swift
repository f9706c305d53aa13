import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// The server configured through imgproxy's `IMGPROXY_*` variables alone, as an imgproxy `.env` would.
@Suite struct ImgproxySettingsTests {
    /// A live server over a live ``SourceOrigin``, configured only by `environment` (plus its temporary cache
    /// folder and port 0, which an `.env` would not name).
    static func run(
        _ environment: [String: String],
        _ body: @escaping @Sendable (any TestClientProtocol, String, SourceOrigin) async throws -> Void
    ) async throws {
        let origin = try SourceOrigin()
        try await origin.run { base in
            try await Self.runWithOrigin(origin, base, environment) { client in try await body(client, base, origin) }
        }
    }

    static func size(_ body: ByteBuffer) throws -> PixelSize {
        try ImageCodersManager.shared.decode(Data(body.readableBytesView), options: .init()).pixelSize
    }

    @Test func theCommandLineWinsThenWebImageVariablesThenImgproxyVariables() throws {
        let environment = ["IMGPROXY_WORKERS": "3", "WEBIMAGE_SERVE_WORKERS": "5", "IMGPROXY_TTL": "600", "IMGPROXY_QUALITY": "70"]
        let settings = ServerSettings(commandLine: ["workers": "7"], environment: environment)
        let configuration = try settings.configuration()
        #expect(configuration.workers == 7 && configuration.maxAge == 600 && configuration.defaultQuality == 70)
        let report = try settings.report()
        #expect(report.contains { $0.hasPrefix("workers = 7") && $0.contains("(command line;") })
        #expect(report.contains { $0.hasPrefix("max-age = 600 s") && $0.contains("(IMGPROXY_*;") })
        #expect(report.contains { $0.hasPrefix("quality = 70") })
        #expect(try ServerSettings(environment: ["IMGPROXY_CONCURRENCY": "2"]).configuration().workers == 2)
    }

    @Test func aBadValueNamesTheVariableAndItsValue() {
        for (name, value, words) in [
            ("IMGPROXY_WORKERS", "many", "is not a whole number"), ("IMGPROXY_USE_ETAG", "maybe", "is not true or false"),
            ("IMGPROXY_FORMAT_QUALITY", "jpeg:70", "FORMAT=QUALITY"), ("IMGPROXY_BIND", "localhost", "is not HOST:PORT"),
            ("IMGPROXY_MAX_SRC_RESOLUTION", "-1", "is not a number"),
        ] {
            do {
                _ = try ServerSettings(environment: [name: value]).configuration()
                Issue.record("\(name)=\(value) was accepted")
            } catch {
                #expect(error.description.contains(name) && error.description.contains(words), "\(error)")
            }
        }
        #expect(throws: ServerSettingsError.self) { _ = try ServerSettings(environment: ["IMGPROXY_KEY": "00ff"]).configuration() }
    }

    @Test func imgproxysLessSafeDefaultsAreNamedAndAnExplicitValueIsHonoured() throws {
        #expect(ServerSettings().differences.count == 4)
        let configuration = try ServerSettings(environment: [
            "IMGPROXY_BIND": ":8080", "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES": "true", "IMGPROXY_REQUESTS_QUEUE_SIZE": "0",
        ]).configuration()
        #expect(configuration.host == "0.0.0.0" && configuration.sourcePolicy.addressPolicy.contains(.privateNetwork))
        // imgproxy's 0 (unbounded) keeps the bound.
        #expect(configuration.maximumQueue == ImageServerConfiguration().maximumQueue)
        #expect(ServerSettings(environment: ["IMGPROXY_BIND": ":8080"]).differences.count == 3)
    }

    @Test func theSecretIsRequiredAsABearerToken() async throws {
        try await Self.run(["IMGPROXY_SECRET": "s3cr3t"]) { client, base, _ in
            let uri = "/_/w:50/plain/\(base)/photo.jpg"
            try await client.execute(uri: uri, method: .get) { #expect($0.status == .forbidden) }
            try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer wrong"]) { #expect($0.status == .forbidden) }
            try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer s3cr3t"]) { #expect($0.status == .ok) }
        }
    }

    @Test func allowOriginSendsCORSHeadersAndAnswersPreflights() async throws {
        try await Self.run(["IMGPROXY_ALLOW_ORIGIN": "https://app.example"]) { client, base, _ in
            try await client.execute(uri: "/_/w:50/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example")
                #expect(response.headers[.accessControlAllowMethods] == "GET, OPTIONS")
            }
            try await client.execute(uri: "/_/w:50/plain/\(base)/photo.jpg", method: .options) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example")
            }
            try await client.execute(uri: "/_/w:0:bad/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example")
            }
        }
    }

    @Test func thePathPrefixIsStrippedBeforeTheSignatureAndOtherPathsAre404() async throws {
        let key = try SignatureKey(keyHex: "736563726574", saltHex: "68656C6C6F")
        try await Self.run(["IMGPROXY_PATH_PREFIX": "/img/", "IMGPROXY_KEY": "736563726574", "IMGPROXY_SALT": "68656C6C6F"]) { client, base, _ in
            let signedPath = "/w:50/plain/\(base)/photo.jpg"
            let signature = URLSignatureVerifier.signature(for: signedPath, key: key)
            try await client.execute(uri: "/img/\(signature)\(signedPath)", method: .get) { response in
                #expect(response.status == .ok)
                let size = try Self.size(response.body)
                #expect(size.width == 50)
            }
            try await client.execute(uri: "/\(signature)\(signedPath)", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func aTruncatedSignatureOfTheConfiguredSizeAndATrustedSignatureAreAccepted() async throws {
        let key = try SignatureKey(keyHex: "736563726574", saltHex: "68656C6C6F")
        try await Self.run([
            "IMGPROXY_KEY": "736563726574", "IMGPROXY_SALT": "68656C6C6F", "IMGPROXY_SIGNATURE_SIZE": "8",
            "IMGPROXY_TRUSTED_SIGNATURES": "trusted-one,trusted-two",
        ]) { client, base, _ in
            let signedPath = "/w:50/plain/\(base)/photo.jpg"
            let full = try #require(Base64URL.decode(URLSignatureVerifier.signature(for: signedPath, key: key)))
            let short = Base64URL.encode(Data(full.prefix(8)))
            try await client.execute(uri: "/\(short)\(signedPath)", method: .get) { #expect($0.status == .ok) }
            let longer = Base64URL.encode(Data(full.prefix(9)))
            try await client.execute(uri: "/\(longer)\(signedPath)", method: .get) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/trusted-two\(signedPath)", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func theHealthCheckPathAnswersLikeHealth() async throws {
        try await Self.run(["IMGPROXY_HEALTH_CHECK_PATH": "/ping"]) { client, _, _ in
            try await client.execute(uri: "/ping", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body) == "ok\n")
            }
        }
    }

    @Test func theBaseURLPrefixesSourcesThatDoNotStartWithIt() async throws {
        let origin = try SourceOrigin()
        try await origin.run { base in
            try await Self.runWithOrigin(origin, base, ["IMGPROXY_BASE_URL": base + "/"]) { client in
                try await client.execute(uri: "/_/w:50/plain/photo.jpg", method: .get) { #expect($0.status == .ok) }
                try await client.execute(uri: "/_/w:51/plain/\(base)/photo.jpg", method: .get) { #expect($0.status == .ok) }
            }
            #expect(await origin.requests.count("/photo.jpg") == 1)
        }
    }

    /// A server configured by `environment` beside an origin already running at `base`.
    static func runWithOrigin(
        _ origin: SourceOrigin, _ base: String, _ environment: [String: String],
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory("imgproxy-settings")
        defer { directory.remove() }
        var configuration = try ServerSettings(environment: environment.merging(["IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "1"]) { a, _ in a })
            .configuration()
        configuration.port = 0
        configuration.cacheDirectory = directory.url
        configuration.cacheMinimumUses = 1
        let app = try buildApplication(configuration: configuration, logger: ServerTestHarness.quietLogger)
        try await app.test(.live) { client in try await body(client) }
    }

    @Test func etagAndLastModifiedCanBeTurnedOffAndIfModifiedSinceIsAnswered() async throws {
        try await Self.run(["IMGPROXY_USE_ETAG": "false"]) { client, base, _ in
            let uri = "/_/w:50/plain/\(base)/validated.jpg"
            let lastModified = try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok && response.headers[.eTag] == nil)
                return try #require(response.headers[.lastModified])
            }
            try await client.execute(uri: uri, method: .get, headers: [.ifModifiedSince: lastModified]) { #expect($0.status == .notModified) }
            try await client.execute(uri: uri, method: .get, headers: [.ifModifiedSince: "Mon, 23 Nov 2026 10:00:00 GMT"]) {
                #expect($0.status == .ok)
            }
        }
        try await Self.run(["IMGPROXY_USE_LAST_MODIFIED": "0"]) { client, base, _ in
            try await client.execute(uri: "/_/w:50/plain/\(base)/validated.jpg", method: .get) { response in
                #expect(response.headers[.lastModified] == nil && response.headers[.eTag] != nil)
            }
        }
    }

    @Test func ttlQualityFormatQualityAndReturnAttachmentApply() async throws {
        try await Self.run([
            "IMGPROXY_TTL": "120", "IMGPROXY_QUALITY": "95", "IMGPROXY_FORMAT_QUALITY": "webp=10", "IMGPROXY_RETURN_ATTACHMENT": "true",
        ]) { client, base, _ in
            // The configured qualities give the bytes of the same quality asked for in the URL.
            func body(_ path: String) async throws -> ByteBuffer {
                try await client.execute(uri: "/_/\(path)/plain/\(base)/photo.jpg", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.cacheControl] == "public, max-age=120")
                    #expect(response.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
                    return response.body
                }
            }
            let (jpeg, jpeg95, jpeg30) = (try await body("w:200"), try await body("w:200/q:95"), try await body("w:200/q:30"))
            #expect(jpeg == jpeg95 && jpeg != jpeg30)
            let (webp, webp10) = (try await body("w:200/f:webp"), try await body("w:200/f:webp/q:10"))
            #expect(webp == webp10)
        }
    }

    @Test func sourceResolutionAndResultDimensionLimitsAre422() async throws {
        try await Self.run(["IMGPROXY_MAX_SRC_RESOLUTION": "0.1", "IMGPROXY_MAX_RESULT_DIMENSION": "300"]) { client, base, _ in
            // The photo is 400×300 = 0.12 MP.
            try await client.execute(uri: "/_/w:50/plain/\(base)/photo.jpg", method: .get) { #expect($0.status == .unprocessableContent) }
        }
        try await Self.run(["IMGPROXY_MAX_RESULT_DIMENSION": "300"]) { client, base, _ in
            try await client.execute(uri: "/_/w:300/plain/\(base)/photo.jpg", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/_/plain/\(base)/photo.jpg", method: .get) { #expect($0.status == .unprocessableContent) }
            try await client.execute(uri: "/_/w:600/el:1/plain/\(base)/photo.jpg", method: .get) { #expect($0.status == .unprocessableContent) }
        }
    }

    @Test func presetsComeFromAFileAndTheEnvironment() async throws {
        let folder = try TemporaryDirectory("presets")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("presets.txt")
        try "# thumbnails\nthumb=rs:fill:40:40\n\nsmall=w:20\n".write(to: file, atomically: true, encoding: .utf8)
        try await Self.run(["IMGPROXY_PRESETS_PATH": file.path, "IMGPROXY_PRESETS": "wide=w:120"]) { client, base, _ in
            for (preset, size) in [("thumb", PixelSize(width: 40, height: 40)), ("small", PixelSize(width: 20, height: 15)), ("wide", PixelSize(width: 120, height: 90))] {
                try await client.execute(uri: "/_/pr:\(preset)/plain/\(base)/photo.jpg", method: .get) { response in
                    #expect(response.status == .ok)
                    let decoded = try Self.size(response.body)
                    #expect(decoded == size, "\(preset)")
                }
            }
        }
    }
}

extension ImgproxySettingsTests {
    @Test func skipProcessingFormatsServeThoseSourcesAsTheyAre() async throws {
        try await Self.run(["IMGPROXY_SKIP_PROCESSING_FORMATS": "jpeg"]) { client, base, origin in
            try await client.execute(uri: "/_/w:50/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.body == ByteBuffer(bytes: origin.photo))
            }
            try await client.execute(uri: "/_/w:50/plain/\(base)/alpha.png", method: .get) { response in
                #expect(response.body != ByteBuffer(bytes: origin.alphaPNG))
            }
        }
    }
}
