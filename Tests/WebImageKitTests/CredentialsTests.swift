import Foundation
import Testing
@testable import WebImageKit

/// Which requests get the downloader's credentials: their origin only, and `https` unless allowed (issue 13 item 5).
@Suite struct CredentialsTests {
    typealias Credentials = ImageDownloader.Configuration.Credentials

    static func credentials(_ origin: String, insecure: Bool = false) throws -> Credentials {
        Credentials(user: "user", password: "pass", origin: try #require(URL(string: origin)), allowsInsecureHTTP: insecure)
    }

    static func applies(_ credentials: Credentials, _ url: String) throws -> Bool {
        credentials.apply(to: try #require(URL(string: url)))
    }

    @Test func credentialsApplyToTheirSchemeHostAndPortOnly() throws {
        let secure = try Self.credentials("https://Images.Example.com")
        #expect(try Self.applies(secure, "https://images.example.com/a.png"))
        #expect(try Self.applies(secure, "https://images.example.com:443/a.png"))   // the default port, spelled out
        #expect(try !Self.applies(secure, "https://images.example.com:8443/a.png"))
        #expect(try !Self.applies(secure, "https://cdn.example.com/a.png"))
        #expect(try !Self.applies(secure, "https://images.example.com.evil.test/a.png"))
        #expect(try !Self.applies(secure, "http://images.example.com/a.png"))       // a downgrade is another origin
    }

    @Test func credentialsForPlainHTTPApplyOnlyWhenAllowed() throws {
        #expect(try !Self.applies(Self.credentials("http://images.example.com"), "http://images.example.com/a.png"))
        #expect(try Self.applies(Self.credentials("http://images.example.com", insecure: true), "http://images.example.com:80/a.png"))
    }
}
