import Foundation
import Testing
@testable import WebImageKit

/// The per-downloader in-memory cookie jar (SPEC DL-06, DL-53).
@Suite struct CookieTests {
    @Test func setCookieIsStoredAndSentBackToTheSameHostWithTheOption() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let setter = base.appendingPathComponent("cookie/set")
                _ = try await downloader.image(for: setter, options: [.handleCookies])
                // `session` has `Path=/`; `theme` has no Path, so its path is the setter's directory, `/cookie`.
                #expect(downloader.cookies.cookies(for: base) == ["session": "abc123"])
                #expect(downloader.cookies.cookies(for: setter) == ["session": "abc123", "theme": "dark"])
                _ = try await downloader.image(for: base.appendingPathComponent("image/next.png"), options: [.handleCookies])
                _ = try await downloader.image(for: setter, options: [.handleCookies])
                _ = try await downloader.image(for: base.appendingPathComponent("image/plain.png"))
            }
            #expect(await server.log.headers(of: "/cookie/set").map { $0["cookie"] } == [nil, "theme=dark; session=abc123"])
            #expect(await server.log.headers(of: "/image/next.png").first?["cookie"] == "session=abc123")
            #expect(await server.log.headers(of: "/image/plain.png").first?["cookie"] == nil)
        }
    }

    @Test func withoutTheOptionNothingIsStored() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                _ = try await downloader.image(for: base.appendingPathComponent("cookie/set"))
                #expect(downloader.cookies.cookies(for: base).isEmpty)
            }
        }
    }

    @Test func maxAgeZeroDeletesAStoredCookie() throws {
        let jar = CookieJar()
        let url = try #require(URL(string: "http://example.test/a"))
        jar.store(setCookieHeaders: ["a=1", "b=2; Max-Age=60"], from: url)
        jar.store(setCookieHeaders: ["a=gone; Max-Age=0"], from: url)
        #expect(jar.cookies(for: url) == ["b": "2"])
        #expect(jar.header(for: try #require(URL(string: "http://other.test/"))) == nil)
    }
}
