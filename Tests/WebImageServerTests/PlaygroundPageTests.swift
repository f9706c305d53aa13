import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WebImageServer

/// `/` with and without `--playground`: the page, its headers and policy, and what `/` is without it.
@Suite struct PlaygroundPageTests {
    /// A configuration whose sources are never fetched, with the playground on or off, signed or not.
    func configuration(playground: Bool, signed: Bool = false) throws -> ImageServerConfiguration {
        let keys = signed ? [try SignatureKey(keyHex: ImageServerApplicationTests.key, saltHex: ImageServerApplicationTests.salt)] : []
        var configuration = ImageServerConfiguration(
            port: 0, signature: URLSignatureVerifier(keys: keys), cacheDirectory: ImageServerApplicationTests.cacheDirectory,
            loader: UnreachableLoader()
        )
        configuration.playground = playground
        return configuration
    }

    /// The text between `<tag>` and `</tag>`, the first time.
    func inline(_ tag: String, in html: String) -> String? {
        guard let open = html.range(of: "<\(tag)>"), let close = html.range(of: "</\(tag)>", range: open.upperBound..<html.endIndex) else {
            return nil
        }
        return String(html[open.upperBound..<close.lowerBound])
    }

    /// `sha256-` and the base64 of the SHA-256 of `text`, as a CSP names inline code.
    func cspHash(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
    }

    @Test func withThePlaygroundOnSlashServesTheSelfContainedPageUnderAStrictPolicy() async throws {
        let app = try buildApplication(configuration: try configuration(playground: true))
        try await app.test(.router) { client in
            for uri in ["/", "/?src=https%3A%2F%2Fexample.com%2Fa.jpg&w=300&auto=1"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                    #expect(response.headers[.cacheControl] == "no-cache")
                    let html = String(buffer: response.body)
                    #expect(response.headers[.contentLength] == "\(html.utf8.count)")
                    #expect(html.hasPrefix("<!doctype html>"))
                    #expect(html.contains(#"data-signing="off""#))
                    for field in ["src", "w", "h", "rt", "g", "cw", "ch", "format", "q", "sig"] {
                        #expect(html.contains(#"id="\#(field)""#), "form field \(field)")
                    }
                    for option in ["fit", "fill", "fill-down", "force", "auto", "jpg", "png", "webp", "avif", "gif"] {
                        #expect(html.contains("<option>\(option)</option>"), "option \(option)")
                    }
                    // Self-contained: no external resource, and server text never goes through innerHTML.
                    #expect(!html.contains("src=\"http") && !html.contains("href=") && !html.contains("@import"))
                    #expect(!html.contains("innerHTML") && !html.contains("outerHTML") && !html.contains("insertAdjacentHTML"))

                    let policy = try #require(response.headers[.contentSecurityPolicy])
                    let directives = Set(policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
                    #expect(directives.contains("default-src 'none'"))
                    #expect(directives.contains("connect-src 'self'"))
                    #expect(directives.contains("img-src 'self' blob:"))
                    #expect(directives.contains("frame-ancestors 'none'"))
                    #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval") && !policy.contains("*"))
                    // The policy allows exactly the inline script and style the page has (one of each).
                    let script = try #require(inline("script", in: html))
                    let style = try #require(inline("style", in: html))
                    #expect(directives.contains("script-src '\(cspHash(script))'"))
                    #expect(directives.contains("style-src '\(cspHash(style))'"))
                    #expect(html.components(separatedBy: "<script").count == 2 && html.components(separatedBy: "<style").count == 2)
                    #expect(!html.contains(" style=") && !html.contains(" onclick="), "no inline attributes the policy would block")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff")
                }
            }
            try await client.execute(uri: "/", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.body.readableBytes == 0)
            }
            // Only `/`: other paths are still image URLs.
            try await client.execute(uri: "/index.html", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
            }
        }
    }

    @Test func withSignaturesOnThePageIsServedUnsignedAndKnowsItCannotSign() async throws {
        let app = try buildApplication(configuration: try configuration(playground: true, signed: true))
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                #expect(html.contains(#"data-signing="on""#))
                #expect(!html.contains(#"data-signing="off""#))
                #expect(html.contains("this page cannot sign"))
            }
            try await client.execute(uri: "/unsafe/w:10/plain/https://example.com/a.jpg", method: .get) { response in
                #expect(response.status == .forbidden, "the page does not weaken signature checks")
            }
        }
    }

    @Test func withThePlaygroundOffSlashIsAnImageURLAsBefore() async throws {
        let unsigned = try buildApplication(configuration: try configuration(playground: false))
        try await unsigned.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy] == nil)
                #expect(String(buffer: response.body) == "invalid URL: expected /%signature/%options/%source\n")
            }
        }
        let signed = try buildApplication(configuration: try configuration(playground: false, signed: true))
        try await signed.test(.router) { client in
            try await client.execute(uri: "/?auto=1", method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(!String(buffer: response.body).contains("<html"))
            }
        }
    }

    @Test func aLiveServerServesThePage() async throws {
        let app = try buildApplication(configuration: try configuration(playground: true))
        try await app.test(.live) { client in
            try await client.execute(uri: "/?w=100&format=webp", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("<title>webimage serve · playground</title>"))
            }
        }
    }
}
