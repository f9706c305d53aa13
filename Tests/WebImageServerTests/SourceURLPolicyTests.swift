import Testing
@testable import WebImageServer

@Suite struct SourceURLPolicyTests {
    @Test func httpAndHttpsURLsAreTakenApartWithDefaultPorts() throws {
        let url = try SourceURL(parsing: "HTTPS://Images.Example.COM./a/b.jpg?x=1")
        #expect(url.scheme == "https")
        #expect(url.host == .name("images.example.com"))
        #expect(url.port == 443)
        #expect(url.path == "/a/b.jpg")
        #expect(url.query == "x=1")
        let bare = try SourceURL(parsing: "http://example.com")
        #expect(bare.port == 80)
        #expect(bare.path == "/")
        let v6 = try SourceURL(parsing: "http://[2606:4700::1]:8080/x")
        #expect(v6.host == .address(try #require(IPAddress("2606:4700::1"))))
        #expect(v6.port == 8080)
    }

    @Test(arguments: ["ftp://example.com/a.jpg", "file:///etc/passwd", "gopher://example.com/", "data:image/png;base64,AAAA", "//example.com/a.jpg", "example.com/a.jpg"])
    func onlyHttpAndHttpsSourcesAreAccepted(_ source: String) {
        #expect { try SourceURLPolicy().check(source) } throws: { ($0 as? SourceURLError)?.code == .unsupportedScheme }
    }

    @Test(arguments: [
        "http://good.example@evil.example/a.jpg", "http://user:pass@good.example/a.jpg", "http://good.example\\@evil.example/",
        "http://exa mple.com/", "http://example.com/a b", "http://%65vil.example/", "http://évil.example/", "http://example.com/#frag",
        "http://2130706433/", "http://127.1/", "http://0x7f.0.0.1/", "http://0177.0.0.1/", "http://[::1/", "http://[fe80::1%25eth0]/",
        "http://example.com:0/", "http://example.com:65536/", "http://example.com:8o/", "http://a..b/", "http:///a.jpg",
        "http://example.com/a/../b", "http://example.com/a/%2e%2E/b", "http://example.com/./b", "http://example.com/a/..",
    ])
    func trickyAndMalformedSourcesAreRefused(_ source: String) {
        #expect { try SourceURLPolicy().check(source) } throws: { ($0 as? SourceURLError)?.code == .malformed }
    }

    @Test(arguments: [
        ("https://cdn.example/images/a.jpg", true), ("https://cdn.example/images/sub/a.jpg", true),
        ("https://CDN.example./images/a.jpg", true), ("https://cdn.example:443/images/a.jpg", true),
        ("https://cdn.example/imagesX.jpg", false), ("https://cdn.example/other/a.jpg", false),
        ("http://cdn.example/images/a.jpg", false), ("https://cdn.example:8443/images/a.jpg", false),
        ("https://cdn.example.evil.example/images/a.jpg", false), ("https://evil.cdn.example/images/a.jpg", false),
        ("https://cdn.example@evil.example/images/a.jpg", false), ("https://evil.example/https://cdn.example/images/a.jpg", false),
        ("https://evil.example/?u=https://cdn.example/images/", false),
    ])
    func allowlistMatchesSchemeHostAndPortExactlyThenThePathPrefix(_ source: String, _ allowed: Bool) throws {
        let policy = SourceURLPolicy(allowedPrefixes: [try SourcePrefix("https://cdn.example/images/")])
        if allowed {
            #expect(throws: Never.self) { try policy.check(source) }
        } else {
            #expect(throws: SourceURLError.self) { try policy.check(source) }
        }
    }

    @Test func aPrefixWithoutTrailingSlashMatchesAtSegmentBoundaries() throws {
        let prefix = try SourcePrefix("http://origin.example:8080/img")
        #expect(prefix.matches(try SourceURL(parsing: "http://origin.example:8080/img")))
        #expect(prefix.matches(try SourceURL(parsing: "http://origin.example:8080/img/a.png")))
        #expect(!prefix.matches(try SourceURL(parsing: "http://origin.example:8080/imgs/a.png")))
        #expect(!prefix.matches(try SourceURL(parsing: "http://origin.example/img/a.png")))
        let hostOnly = try SourcePrefix("https://origin.example")
        #expect(hostOnly.matches(try SourceURL(parsing: "https://origin.example/any/thing.png?q=1")))
    }

    @Test func anySourceIsAllowedWithoutPrefixesAndNoneOutsideThemWithPrefixes() throws {
        #expect(throws: Never.self) { try SourceURLPolicy().check("https://anything.example/a.png") }
        let policy = SourceURLPolicy(allowedPrefixes: [try SourcePrefix("https://a.example/"), try SourcePrefix("https://b.example/x/")])
        #expect(throws: Never.self) { try policy.check("https://b.example/x/1.png") }
        #expect { try policy.check("https://c.example/x/1.png") } throws: { ($0 as? SourceURLError)?.code == .notAllowed }
    }

    @Test(arguments: [
        ("http://127.0.0.1/a.png", AddressClass.loopback), ("http://[::1]/a.png", .loopback), ("http://10.0.0.5/a.png", .privateNetwork),
        ("http://169.254.169.254/latest/meta-data/", .linkLocal), ("http://100.64.1.1/", .sharedAddressSpace),
        ("http://[fd00::1]/", .uniqueLocal), ("http://[fe80::1]/", .linkLocal), ("http://[::ffff:127.0.0.1]/", .loopback),
        ("http://[::ffff:a9fe:a9fe]/", .linkLocal), ("http://[64:ff9b::10.0.0.1]/", .privateNetwork), ("http://0.0.0.0/", .unspecified),
        ("http://[::]/", .unspecified), ("http://224.0.0.251/", .multicast),
    ])
    func literalAddressesOfRefusedClassesAreRefused(_ source: String, _ addressClass: AddressClass) {
        #expect { try SourceURLPolicy().check(source) } throws: { ($0 as? SourceURLError)?.code == .refusedAddress(addressClass) }
    }

    @Test func aClassFlagAllowsLiteralAddressesOfThatClassOnly() throws {
        let policy = SourceURLPolicy(addressPolicy: .loopback)
        #expect(throws: Never.self) { try policy.check("http://127.0.0.1:8080/a.png") }
        #expect(throws: Never.self) { try policy.check("http://[::ffff:127.0.0.1]/a.png") }
        #expect(throws: SourceURLError.self) { try policy.check("http://192.168.0.1/a.png") }
    }

    @Test func refusalMessagesDoNotRepeatTheSource() {
        for source in ["http://secret-host.example@evil.example/", "http://127.0.0.1/secret-path", "ftp://secret-host.example/"] {
            do {
                _ = try SourceURLPolicy().check(source)
                Issue.record("\(source) was accepted")
            } catch {
                #expect(!error.message.contains("secret"))
            }
        }
    }

    @Test func prefixesFollowTheSameRulesAndHaveNoQuery() {
        #expect(throws: SourceURLError.self) { try SourcePrefix("https://a.example/x?y=1") }
        #expect(throws: SourceURLError.self) { try SourcePrefix("https://user@a.example/") }
        #expect(throws: SourceURLError.self) { try SourcePrefix("ftp://a.example/") }
    }
}

/// `*` in an allowed source, as in imgproxy: any run of characters but `/`, matched on the strictly parsed URL.
@Suite struct SourcePrefixWildcardTests {
    @Test(arguments: [
        ("https://eu.cdn.example/a.jpg", true), ("https://a.b.cdn.example/a.jpg", true), ("https://cdn.example/a.jpg", false),
        ("https://evil.example/.cdn.example/a.jpg", false), ("https://evil.example?.cdn.example/a.jpg", false),
        ("https://x@eu.cdn.example/a.jpg", false), ("http://eu.cdn.example/a.jpg", false), ("https://eu.cdn.example.evil/a.jpg", false),
    ])
    func aHostWildcardMatchesLabelsButNotAnotherHost(_ source: String, _ allowed: Bool) throws {
        let policy = SourceURLPolicy(allowedPrefixes: [try SourcePrefix("https://*.cdn.example/")])
        if allowed {
            #expect(throws: Never.self) { try policy.check(source) }
        } else {
            #expect(throws: SourceURLError.self) { try policy.check(source) }
        }
    }

    @Test func aPathWildcardMatchesOneSegmentAndKeepsTheBoundaryRule() throws {
        let prefix = try SourcePrefix("https://cdn.example/*/thumbs")
        #expect(prefix.matches(try SourceURL(parsing: "https://cdn.example/2024/thumbs/a.jpg")))
        #expect(prefix.matches(try SourceURL(parsing: "https://cdn.example/2024/thumbs")))
        #expect(!prefix.matches(try SourceURL(parsing: "https://cdn.example/2024/thumbsX/a.jpg")))
        #expect(!prefix.matches(try SourceURL(parsing: "https://cdn.example/2024/11/thumbs/a.jpg")))
        let partial = try SourcePrefix("https://cdn.example/img-*.png")
        #expect(partial.matches(try SourceURL(parsing: "https://cdn.example/img-1.png")))
        #expect(!partial.matches(try SourceURL(parsing: "https://cdn.example/img-1/x.png")))
    }

    @Test func wildcardsWorkInLocalAndS3Prefixes() {
        #expect(Wildcard.text("/users/42/avatar.png", startsWith: "/users/*/avatar"))
        #expect(!Wildcard.text("/users/42/secret/avatar.png", startsWith: "/users/*/avatar"))
        #expect(Wildcard.text("s3://media-eu/a.jpg", startsWith: "s3://media-*/"))
        #expect(!Wildcard.text("s3://other/a.jpg", startsWith: "s3://media-*/"))
    }

    @Test func aWildcardSettingIsAccepted() throws {
        let configuration = try ServerSettings(environment: ["IMGPROXY_ALLOWED_SOURCES": "https://*.cdn.example/,local:///img/*/"]).configuration()
        #expect(configuration.sourcePolicy.allowedPrefixes.map(\.description) == ["https://*.cdn.example/"])
        #expect(configuration.allowedLocalPrefixes == ["/img/*/"])
    }
}
