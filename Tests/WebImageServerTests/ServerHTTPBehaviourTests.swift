import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageKit
import WebImageTestSupport
@testable import WebImageServer

/// Validators, conditional requests, HEAD, Content-Disposition and Accept negotiation.
@Suite struct ServerHTTPBehaviourTests {
    @Test func theETagIsStableAndAMatchingIfNoneMatchGets304WithoutABody() async throws {
        try await ServerTestHarness.run { client, base, origin in
            let uri = "/_/w:50/plain/\(base)/validated.jpg"
            let etag = try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.lastModified] == "Tue, 24 Nov 2026 10:00:00 GMT")
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == etag)
            }
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"other\""]) { response in
                #expect(response.status == .ok)
            }
            #expect(await origin.requests.count("/validated.jpg") == 1)
        }
    }

    @Test func theETagDependsOnTheOptionsButNotOnTheSignature() async throws {
        let first = try SignatureKey(keyHex: "6b6579", saltHex: "73616c74")
        let second = try SignatureKey(keyHex: "6b657932", saltHex: "73616c7432")
        try await ServerTestHarness.run(configure: { $0.signature = URLSignatureVerifier(keys: [first, second]) }) { client, base, _ in
            func etag(_ path: String, key: SignatureKey) async throws -> String? {
                let signature = URLSignatureVerifier.signature(for: path, key: key)
                return try await client.execute(uri: "/\(signature)\(path)", method: .get) { response in
                    #expect(response.status == .ok)
                    return response.headers[.eTag]
                }
            }
            let small = "/w:50/plain/\(base)/validated.jpg"
            let large = "/w:60/plain/\(base)/validated.jpg"
            let withFirst = try await etag(small, key: first)
            #expect(withFirst != nil)
            #expect(try await etag(small, key: second) == withFirst)
            #expect(try await etag(large, key: first) != withFirst)
        }
    }

    @Test func headAnswersTheHeadersOfGetWithoutTheBody() async throws {
        try await ServerTestHarness.run { client, base, _ in
            let uri = "/_/w:50/plain/\(base)/photo.jpg"
            let length = try await client.execute(uri: uri, method: .get) { $0.headers[.contentLength] }
            try await client.execute(uri: uri, method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(response.headers[.contentLength] == length)
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test func contentDispositionNamesTheFileAfterTheSourceOrTheFilenameOption() async throws {
        try await ServerTestHarness.run { client, base, _ in
            try await client.execute(uri: "/_/w:50/f:png/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.headers[.contentDisposition] == "inline; filename=\"photo.png\"; filename*=UTF-8''photo.png")
            }
            try await client.execute(uri: "/_/w:50/fn:holiday%20snap/att:1/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"holiday snap.jpg\"; filename*=UTF-8''holiday%20snap.jpg")
            }
        }
    }

    @Test func autoWebPAnswersWebPToClientsThatAcceptItAndVariesOnAccept() async throws {
        try await ServerTestHarness.run(configure: { $0.autoWebP = true }) { client, base, _ in
            let uri = "/_/w:50/plain/\(base)/photo.jpg"
            try await client.execute(uri: uri, method: .get, headers: [.accept: "image/webp,image/*;q=0.8"]) { response in
                #expect(response.headers[.contentType] == "image/webp")
                #expect(response.headers[.vary] == "Accept")
            }
            try await client.execute(uri: uri, method: .get, headers: [.accept: "image/*"]) { response in
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(response.headers[.vary] == "Accept")
            }
            try await client.execute(uri: "/_/w:50/f:png/plain/\(base)/photo.jpg", method: .get, headers: [.accept: "image/webp"]) { response in
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.vary] == nil)
            }
        }
    }

    @Test func acceptNegotiationPrefersJXLThenAVIFAndHonoursQualityZero() throws {
        var configuration = ImageServerConfiguration()
        (configuration.autoAVIF, configuration.autoWebP) = (true, true)
        let both = AcceptNegotiation(configuration)
        #expect(both.format(accept: "image/avif,image/webp,*/*", asked: nil) == .avif)
        #expect(both.format(accept: "image/avif;q=0, image/webp", asked: nil) == .webp)
        #expect(both.format(accept: "*/*", asked: nil) == nil)
        #expect(both.format(accept: "image/webp", asked: .png) == nil)
        #expect(AcceptNegotiation(ImageServerConfiguration()).format(accept: "image/webp", asked: nil) == nil)
        var jxl = ImageServerConfiguration()
        (jxl.autoJXL, jxl.enforceAVIF) = (true, true)
        #expect(AcceptNegotiation(jxl).format(accept: "image/jxl,image/avif", asked: nil) == .jxl)
        #expect(AcceptNegotiation(jxl).format(accept: "image/jxl,image/avif", asked: .png) == .avif)
        #expect(try ServerSettings(environment: ["IMGPROXY_ENFORCE_JXL": "1"]).configuration().enforceJXL)
    }

    @Test func anEnforcedFormatReplacesTheURLsFormatWhenAccepted() async throws {
        try await ServerTestHarness.run(configure: { $0.enforceWebP = true }) { client, base, _ in
            try await client.execute(uri: "/_/w:50/f:png/plain/\(base)/photo.jpg", method: .get, headers: [.accept: "image/webp"]) { response in
                #expect(response.headers[.contentType] == "image/webp")
                #expect(response.headers[.vary] == "Accept")
            }
            try await client.execute(uri: "/_/w:50/f:png/plain/\(base)/photo.jpg", method: .get, headers: [.accept: "image/png"]) { response in
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.vary] == "Accept")
            }
            // Enforcing implies the automatic choice for URLs without a format.
            try await client.execute(uri: "/_/w:50/plain/\(base)/photo.jpg", method: .get, headers: [.accept: "image/webp"]) { response in
                #expect(response.headers[.contentType] == "image/webp")
            }
        }
    }

    @Test func preferredFormatsDecideAFormatlessResult() async throws {
        try await ServerTestHarness.run(configure: { $0.preferredFormats = [.jpeg, .png, .gif] }) { client, base, _ in
            // A GIF source is in the list: kept. An animation in a non-listed format would become GIF, the first that animates.
            try await client.execute(uri: "/_/w:20/plain/\(base)/animation.gif", method: .get) { response in
                #expect(response.headers[.contentType] == "image/gif")
            }
            try await client.execute(uri: "/_/w:20/plain/\(base)/alpha.png", method: .get) { response in
                #expect(response.headers[.contentType] == "image/png")
            }
        }
        try await ServerTestHarness.run(configure: { $0.preferredFormats = [.webp] }) { client, base, _ in
            // Neither JPEG nor PNG is preferred: both become WebP, which keeps alpha.
            for name in ["photo.jpg", "alpha.png"] {
                try await client.execute(uri: "/_/w:20/plain/\(base)/\(name)", method: .get) { response in
                    #expect(response.headers[.contentType] == "image/webp", "\(name)")
                }
            }
        }
    }

    @Test func errorsAreOneLineThatIsNeverCachedAndDoNotEchoTheSource() async throws {
        try await ServerTestHarness.run { client, base, _ in
            try await client.execute(uri: "/_/w:50/plain/\(base)/status/404", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.cacheControl] == "no-cache")
                let body = String(buffer: response.body)
                #expect(!body.contains(base))
                #expect(body.filter { $0 == "\n" }.count == 1)
            }
        }
    }

    @Test func everyResponseCarriesARequestIDAndKeepsASaneOneFromTheClient() async throws {
        try await ServerTestHarness.run { client, _, _ in
            try await client.execute(uri: "/health", method: .get, headers: [RequestRecordMiddleware.requestIDField: "abc-123"]) { response in
                #expect(response.headers[RequestRecordMiddleware.requestIDField] == "abc-123")
            }
            try await client.execute(uri: "/health", method: .get, headers: [RequestRecordMiddleware.requestIDField: "bad id\u{7F}"]) { response in
                let id = response.headers[RequestRecordMiddleware.requestIDField] ?? ""
                #expect(id.count == 16 && id != "bad id\u{7F}")
            }
        }
    }
}

/// Animated sources stay animated in formats that hold animation, within the animation budget.
@Suite struct ServerAnimationTests {
    static func frameCount(_ body: ByteBuffer) throws -> Int {
        try ImageCodersManager.shared.decode(Data(body.readableBytesView), options: ImageDecodingOptions()).frames.count
    }

    @Test func anAnimatedGIFStaysAnimatedInGIFAndWebPAndBecomesItsFirstFrameInPNG() async throws {
        try await ServerTestHarness.run { client, base, _ in
            for (uri, frames) in [("/_/w:20/plain/\(base)/animation.gif", 3), ("/_/w:20/f:webp/plain/\(base)/animation.gif", 3),
                                  ("/_/w:20/f:png/plain/\(base)/animation.gif", 1)] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    let image = try ImageCodersManager.shared.decode(Data(response.body.readableBytesView), options: ImageDecodingOptions())
                    #expect(image.frames.count == frames, "\(uri)")
                    #expect(image.pixelSize == PixelSize(width: 20, height: 15), "\(uri)")
                }
            }
        }
    }

    /// The budget counts decoded frames at the size they are kept: resized as each is read (20×15 here,
    /// from 40×30), so two of those fit and the third does not.
    @Test func anAnimationOverTheBudgetIsServedAsItsFirstFrame() async throws {
        try await ServerTestHarness.run(configure: { $0.maximumAnimationBytes = 20 * 15 * 4 * 2 }) { client, base, _ in
            try await client.execute(uri: "/_/w:20/plain/\(base)/animation.gif", method: .get) { response in
                #expect(response.status == .ok)
                let frames = try Self.frameCount(response.body)
                #expect(frames == 1)
            }
        }
    }
}
