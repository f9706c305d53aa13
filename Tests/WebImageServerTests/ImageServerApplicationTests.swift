import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WebImageServer

@Suite struct ImageServerApplicationTests {
    static let key = "736563726574"
    static let salt = "68656C6C6F"

    /// Where these tests' server keeps its (always empty) source cache: every fetch fails at once.
    static let cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-server-tests-unreachable")

    /// A signed configuration whose sources are never fetched: past the checks, a URL gets the 502 of an
    /// unreachable origin.
    func signedConfiguration(sourcePolicy: SourceURLPolicy = SourceURLPolicy()) throws -> ImageServerConfiguration {
        ImageServerConfiguration(
            port: 0,
            signature: URLSignatureVerifier(keys: [try SignatureKey(keyHex: Self.key, saltHex: Self.salt)]),
            sourcePolicy: sourcePolicy, cacheDirectory: Self.cacheDirectory, loader: UnreachableLoader()
        )
    }

    /// An unsigned configuration whose sources are never fetched.
    func unsignedConfiguration() -> ImageServerConfiguration {
        ImageServerConfiguration(port: 0, cacheDirectory: Self.cacheDirectory, loader: UnreachableLoader())
    }

    func signed(_ signedPath: String) throws -> String {
        let key = try SignatureKey(keyHex: Self.key, saltHex: Self.salt)
        return "/" + URLSignatureVerifier.signature(for: signedPath, key: key) + signedPath
    }

    @Test func aBadOrMissingSignatureIs403() async throws {
        let app = try buildApplication(configuration: try signedConfiguration())
        try await app.test(.router) { client in
            for uri in ["/insecure/w:100/plain/https://example.com/a.jpg", "/w:100/plain/https://example.com/a.jpg", "/"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .forbidden, "\(uri)")
                    #expect(String(buffer: response.body) == "invalid signature\n")
                    #expect(response.headers[.cacheControl] == "no-cache")
                }
            }
        }
    }

    @Test func theDocumentedSignedURLPassesTheSignatureCheck() async throws {
        let app = try buildApplication(configuration: try signedConfiguration())
        try await app.test(.router) { client in
            // Past the signature check, the unreachable origin's 502 (a bad signature would be 403).
            let uri = "/oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .badGateway)
                #expect(String(buffer: response.body) == "the source image could not be loaded\n")
            }
        }
    }

    @Test func aSignedURLWithABadOptionIs400NamingTheOption() async throws {
        let app = try buildApplication(configuration: try signedConfiguration())
        try await app.test(.router) { client in
            try await client.execute(uri: try signed("/rs:stretch:100/plain/https://example.com/a.jpg"), method: .get) { response in
                #expect(response.status == .badRequest)
                let body = String(buffer: response.body)
                #expect(body.hasPrefix("invalid argument for option 'rs'"))
                #expect(body.hasSuffix("\n") && body.dropLast().firstIndex(of: "\n") == nil, "one line")
                #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
            }
            // An option the server does not know is a 404, as imgproxy answers.
            try await client.execute(uri: try signed("/teleport:2/plain/https://example.com/a.jpg"), method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body) == "unknown option 'teleport'\n")
            }
        }
    }

    @Test func refusedSourcesAre403AndMalformedOnes400WithoutEchoingTheSource() async throws {
        let policy = SourceURLPolicy(allowedPrefixes: [try SourcePrefix("https://cdn.example/")])
        let app = try buildApplication(configuration: try signedConfiguration(sourcePolicy: policy))
        try await app.test(.router) { client in
            let cases: [(String, HTTPResponse.Status)] = [
                ("/w:10/plain/https://secret.example/a.jpg", .forbidden),
                ("/w:10/plain/http://127.0.0.1/secret.jpg", .forbidden),
                ("/w:10/plain/ftp://cdn.example/secret.jpg", .badRequest),
                ("/w:10/plain/https://cdn.example%40secret.example/a.jpg", .badRequest),
            ]
            for (path, status) in cases {
                try await client.execute(uri: try signed(path), method: .get) { response in
                    #expect(response.status == status, "\(path)")
                    #expect(!String(buffer: response.body).contains("secret"))
                }
            }
            try await client.execute(uri: try signed("/w:10/plain/https://cdn.example/a.jpg"), method: .get) { response in
                #expect(response.status == .badGateway)
            }
        }
    }

    @Test func withoutKeysAnySignatureSegmentIsAccepted() async throws {
        let app = try buildApplication(configuration: unsignedConfiguration())
        try await app.test(.router) { client in
            try await client.execute(uri: "/insecure/w:100/plain/https://example.com/a.jpg", method: .get) { response in
                #expect(response.status == .badGateway)
            }
        }
    }

    @Test func otherMethodsAre405() async throws {
        let app = try buildApplication(configuration: unsignedConfiguration())
        try await app.test(.router) { client in
            try await client.execute(uri: "/_/w:1/plain/https://example.com/a.jpg", method: .post) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
            }
        }
    }

    @Test func aRealServerOnLoopbackChecksSignaturesOnTheRawPathWithoutTheQuery() async throws {
        let app = try buildApplication(configuration: try signedConfiguration())
        try await app.test(.live) { client in
            // `%2520` is an escaped `%20`: the source URL itself keeps its escape.
            let path = "/w:10/plain/https://example.com/a%2520b.jpg"
            try await client.execute(uri: try signed(path) + "?ignored=1", method: .get) { response in
                #expect(response.status == .badGateway)
            }
            try await client.execute(uri: try signed(path).replacingFirst("a%2520b", with: "a%2520c"), method: .get) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }
}
