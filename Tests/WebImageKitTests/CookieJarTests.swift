import Foundation
import Testing
@testable import WebImageKit
import WebImageTestSupport

/// The cookie jar's RFC 6265 rules, one attribute at a time (SPEC DL-06, DL-53).
@Suite struct CookieJarTests {
    static func url(_ string: String) throws -> URL { try #require(URL(string: string)) }

    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    @Test func withoutDomainACookieGoesOnlyToTheHostThatSetIt() throws {
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["id=1"], from: try Self.url("http://images.example.com/a.png"))
        #expect(jar.cookies(for: try Self.url("http://images.example.com/b.png")) == ["id": "1"])
        #expect(jar.cookies(for: try Self.url("http://cdn.images.example.com/b.png")).isEmpty)
        #expect(jar.cookies(for: try Self.url("http://example.com/b.png")).isEmpty)
    }

    @Test func aDomainCookieGoesToTheDomainAndItsSubdomains() throws {
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["id=1; Domain=.Example.com"], from: try Self.url("http://images.example.com/"))
        #expect(jar.cookies(for: try Self.url("http://example.com/")) == ["id": "1"])
        #expect(jar.cookies(for: try Self.url("http://cdn.images.example.com/")) == ["id": "1"])
        #expect(jar.cookies(for: try Self.url("http://notexample.com/")).isEmpty)
        #expect(jar.cookies(for: try Self.url("http://example.org/")).isEmpty)
    }

    @Test func aDomainOutsideTheHostIsIgnored() throws {
        let jar = CookieJar()
        let host = try Self.url("http://images.example.com/")
        jar.store(setCookieHeaders: ["a=1; Domain=other.com", "b=2; Domain=cdn.images.example.com"], from: host)
        #expect(jar.cookies(for: try Self.url("http://other.com/")).isEmpty)
        #expect(jar.cookies(for: try Self.url("http://cdn.images.example.com/")).isEmpty)
        #expect(jar.cookies(for: host).isEmpty)
    }

    @Test func aBareTopLevelDomainIsRefusedUnlessItIsTheHostItself() throws {
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["wide=1; Domain=com"], from: try Self.url("http://example.com/"))
        #expect(jar.cookies(for: try Self.url("http://example.com/")).isEmpty)
        #expect(jar.cookies(for: try Self.url("http://other.com/")).isEmpty)
        // The host itself as Domain: kept, as a host-only cookie.
        jar.store(setCookieHeaders: ["local=1; Domain=localhost"], from: try Self.url("http://localhost/"))
        #expect(jar.cookies(for: try Self.url("http://localhost/")) == ["local": "1"])
        #expect(jar.cookies(for: try Self.url("http://a.localhost/")).isEmpty)
    }

    @Test func anIPAddressHostGetsNoSubdomainMatching() throws {
        #expect(!Cookie.domain("1.2.3.4", matches: "3.4"))
        #expect(Cookie.domain("1.2.3.4", matches: "1.2.3.4"))
        #expect(Cookie.domain("a.b.example.com", matches: "example.com"))
    }

    @Test func aCookieGoesOnlyToItsPathAndBelow() throws {
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["a=1; Path=/images", "b=2; Path=/images/"], from: try Self.url("http://example.com/"))
        #expect(jar.cookies(for: try Self.url("http://example.com/images")) == ["a": "1"])
        #expect(jar.cookies(for: try Self.url("http://example.com/images/x.png")) == ["a": "1", "b": "2"])
        #expect(jar.cookies(for: try Self.url("http://example.com/imagesX/x.png")).isEmpty)
        #expect(jar.cookies(for: try Self.url("http://example.com/")).isEmpty)
    }

    @Test func withoutPathTheDefaultIsTheRequestsDirectory() throws {
        #expect(Cookie.defaultPath(of: "/a/b/c.png") == "/a/b")
        #expect(Cookie.defaultPath(of: "/c.png") == "/")
        #expect(Cookie.defaultPath(of: "") == "/")
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["a=1", "b=2; Path=relative"], from: try Self.url("http://example.com/a/b/c.png"))
        #expect(jar.cookies(for: try Self.url("http://example.com/a/b/d.png")) == ["a": "1", "b": "2"])
        #expect(jar.cookies(for: try Self.url("http://example.com/a/d.png")).isEmpty)
    }

    @Test func longerPathsAreSentFirstThenOlderCookies() throws {
        let jar = CookieJar()
        let origin = try Self.url("http://example.com/")
        jar.store(setCookieHeaders: ["z=1; Path=/", "y=2; Path=/a", "x=3; Path=/"], from: origin)
        jar.store(setCookieHeaders: ["x=4; Path=/a/b"], from: origin)
        #expect(jar.header(for: try Self.url("http://example.com/a/b/c")) == "x=4; y=2; z=1; x=3")
        #expect(jar.cookies(for: try Self.url("http://example.com/a/b/c"))["x"] == "4")
    }

    @Test func aSecureCookieIsNeverSentOverPlainHTTP() throws {
        let jar = CookieJar()
        jar.store(setCookieHeaders: ["token=1; Secure", "plain=2"], from: try Self.url("https://example.com/"))
        #expect(jar.cookies(for: try Self.url("https://example.com/")) == ["token": "1", "plain": "2"])
        #expect(jar.cookies(for: try Self.url("http://example.com/")) == ["plain": "2"])
        #expect(jar.header(for: try Self.url("http://example.com/")) == "plain=2")
    }

    @Test func aCookieExpiresAtItsExpiresDate() throws {
        let clock = TestDate(Self.start)
        let jar = CookieJar { clock.now }
        let origin = try Self.url("http://example.com/")
        jar.store(setCookieHeaders: [
            "later=1; Expires=Wed, 18 May 2033 03:33:30 GMT",   // 10 s after the start
            "past=2; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            "bad=3; Expires=not a date",                        // ignored: a session cookie
        ], from: origin)
        #expect(jar.cookies(for: origin) == ["later": "1", "bad": "3"])
        clock.set(Self.start + 10)
        #expect(jar.cookies(for: origin) == ["bad": "3"])
    }

    @Test func maxAgeWinsOverExpiresAndZeroOrLessDeletes() throws {
        let clock = TestDate(Self.start)
        let jar = CookieJar { clock.now }
        let origin = try Self.url("http://example.com/")
        jar.store(setCookieHeaders: [
            "a=1; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            "b=2; Expires=Fri, 01 Jan 2100 00:00:00 GMT; Max-Age=5",
            "c=3; Max-Age=soon",
        ], from: origin)
        #expect(jar.cookies(for: origin) == ["a": "1", "b": "2", "c": "3"])
        clock.set(Self.start + 5)
        #expect(jar.cookies(for: origin) == ["a": "1", "c": "3"])
        jar.store(setCookieHeaders: ["a=gone; Max-Age=0", "c=gone; Max-Age=-1"], from: origin)
        #expect(jar.cookies(for: origin).isEmpty)
    }

    @Test func aDeletionMustNameTheSameDomainAndPath() throws {
        let jar = CookieJar()
        let origin = try Self.url("http://example.com/a/page")
        jar.store(setCookieHeaders: ["id=1; Path=/a"], from: origin)
        jar.store(setCookieHeaders: ["id=x; Path=/; Max-Age=0"], from: origin)
        #expect(jar.cookies(for: origin) == ["id": "1"])
        jar.store(setCookieHeaders: ["id=x; Path=/a; Max-Age=0"], from: origin)
        #expect(jar.cookies(for: origin).isEmpty)
    }

    @Test func httpOnlyCookiesAreKeptAndSent() throws {
        let jar = CookieJar()
        let origin = try Self.url("http://example.com/")
        jar.store(setCookieHeaders: ["session=abc; HttpOnly"], from: origin)
        #expect(jar.header(for: origin) == "session=abc")
    }

    @Test func malformedHeadersAreIgnored() throws {
        let jar = CookieJar()
        let origin = try Self.url("http://example.com/")
        jar.store(setCookieHeaders: ["novalue", "=nameless", " spaced = out ; path=/"], from: origin)
        #expect(jar.cookies(for: origin) == ["spaced": "out"])
    }

    @Test func cookieDatesParseTheFormatsServersSend() throws {
        let expected = Date(timeIntervalSince1970: 784_111_777)  // 1994-11-06 08:49:37 UTC
        #expect(CookieDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(CookieDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(CookieDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(CookieDate.parse("Wed, 21 Oct 2037 07:28:00 GMT") == Date(timeIntervalSince1970: 2_139_722_880))
        #expect(CookieDate.parse("Sun, 30 Feb 2020 08:49:37 GMT") == nil)
        #expect(CookieDate.parse("Sun, 06 Nov 1994 24:00:00 GMT") == nil)
        #expect(CookieDate.parse("06 Nov 1994") == nil)
    }
}
