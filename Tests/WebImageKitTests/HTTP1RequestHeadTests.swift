import Foundation
import NIOHTTP1
import Testing
@testable import WebImageKit

/// The request head the downloader's HTTP/1.1 client sends: the path and query as the URL spells them, its own
/// `Host` (an IPv6 literal in brackets, the port unless it is the scheme's), and the given headers but any `Host`
/// or `Connection`, whatever their case.
@Suite struct HTTP1RequestHeadTests {
    @Test func hostAndConnectionHeadersInAnyCaseAreLeftOutAndTheOthersKept() throws {
        let url = try #require(URL(string: "http://[::1]:8080/a%20b.jpg?x=1"))
        let given = HTTPHeaders([("HOST", "evil.example"), ("connection", "close"), ("CoNnEcTiOn", "upgrade"), ("Accept", "image/*"),
                                 ("Hostname", "kept"), ("X-Host", "kept")])
        let (origin, head) = try HTTP1ConnectionPool.request(for: url, headers: given, verifiesCertificates: true)
        #expect(origin.host == "::1" && origin.port == 8080 && !origin.isTLS)
        #expect(head.uri == "/a%20b.jpg?x=1")
        #expect(head.headers["Host"] == ["[::1]:8080"])
        #expect(head.headers["Connection"].isEmpty)
        #expect(head.headers["Accept"] == ["image/*"] && head.headers["Hostname"] == ["kept"] && head.headers["X-Host"] == ["kept"])
        let plain = try HTTP1ConnectionPool.request(for: try #require(URL(string: "https://example.com/")), headers: [:], verifiesCertificates: true)
        #expect(plain.1.headers["Host"] == ["example.com"] && plain.0.port == 443)
    }
}
