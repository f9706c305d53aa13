import Foundation
import Testing
import WebImageKit

/// The downloader's configuration as a user changes it after creation, and where credentials go
/// (SPEC DL-17, DL-19, DL-36, DL-37, DL-43, DL-56; issue 13 item 5).
@Suite struct DownloaderConfigurationTests {
    static let authorization = "Basic dXNlcjpwYXNz"

    /// The `Authorization` header of each request to `/auth`, in arrival order.
    static func authorizations(_ server: TestImageServer) async -> [String?] {
        await server.log.headers(of: "/auth").map { $0["authorization"] }
    }

    /// `base` with its host replaced: the same server reached through another origin.
    static func otherOrigin(_ base: URL) throws -> URL {
        var components = try #require(URLComponents(url: base, resolvingAgainstBaseURL: false))
        components.host = "localhost"
        return try #require(components.url)
    }

    @Test func credentialsGoOnlyToTheirOriginAndNotAcrossARedirect() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.credentials = .init(user: "user", password: "pass", origin: base, allowsInsecureHTTP: true)
            let other = try Self.otherOrigin(base)
            let sameOrigin = try await ImageDownloaderTests.error(base.appendingPathComponent("auth"), configuration)
            #expect(sameOrigin == nil)
            let otherHost = try await ImageDownloaderTests.error(other.appendingPathComponent("auth"), configuration)
            #expect(otherHost?.code == .badStatus(401))
            let target = other.appendingPathComponent("auth").absoluteString
            let redirected = try await ImageDownloaderTests.error(
                URL(string: "\(base)/redirect?to=\(target)")!, configuration)
            #expect(redirected?.code == .badStatus(401))
            var otherPort = configuration
            otherPort.credentials?.origin = URL(string: "http://\(base.host ?? ""):\((base.port ?? 80) + 1)")!
            let wrongPort = try await ImageDownloaderTests.error(base.appendingPathComponent("auth"), otherPort)
            #expect(wrongPort?.code == .badStatus(401))
            #expect(await Self.authorizations(server) == [Self.authorization, nil, nil, nil])
        }
    }

    @Test func credentialsAreNeverSentOverPlainHTTPUnlessAllowed() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.credentials = .init(user: "user", password: "pass", origin: base)
            let error = try await ImageDownloaderTests.error(base.appendingPathComponent("auth"), configuration)
            #expect(error?.code == .badStatus(401))
            #expect(await Self.authorizations(server) == [nil])
        }
    }

    @Test func headersChangedAfterCreationApplyToTheNextDownload() async throws {  // SPEC DL-36, DL-37
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                _ = try await downloader.data(for: base.appendingPathComponent("image/before"))
                downloader.configuration.headers["X-Client"] = "gallery"
                downloader.configuration.headers["User-Agent"] = nil
                #expect(downloader.configuration.headers["X-Client"] == "gallery")
                _ = try await downloader.data(for: base.appendingPathComponent("image/after"))
            }
            let before = try #require(await server.log.headers(of: "/image/before").first)
            let after = try #require(await server.log.headers(of: "/image/after").first)
            #expect(before["x-client"] == nil)
            #expect(before["user-agent"] == ImageDownloader.Configuration.defaultUserAgent)
            #expect(after["x-client"] == "gallery")
            #expect(after["user-agent"] != ImageDownloader.Configuration.defaultUserAgent)
        }
    }

    @Test func aTimeoutChangedAfterCreationAppliesToTheNextDownload() async throws {  // SPEC DL-19, DL-43
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                _ = try await downloader.data(for: base.appendingPathComponent("image/warm"))  // a client with 15 s
                downloader.configuration.timeout = .milliseconds(700)
                let clock = ContinuousClock()
                let start = clock.now
                do {
                    _ = try await downloader.data(for: base.appendingPathComponent("fault/stall"))
                    Issue.record("a stalled body completed")
                } catch {
                    #expect((error as? ImageDownloadError)?.code == .timeout)
                }
                #expect(clock.now - start < .seconds(10))
                // Downloads go on after the timeout; with room for a starved run (the thread sanitizer's) to answer.
                downloader.configuration.timeout = .seconds(60)
                _ = try await downloader.data(for: base.appendingPathComponent("image/after"))
            }
        }
    }

    @Test func aRaisedConcurrencyLimitStartsWaitingDownloads() async throws {  // SPEC DL-17
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.maximumConcurrentDownloads = 1
            try await withImageDownloader(configuration: configuration) { downloader in
                var events = server.events.makeAsyncIterator()
                let (results, sink) = AsyncStream.makeStream(of: ImageDownloaderTests.Completion.self)
                for index in 0..<2 {
                    downloader.download(base.appendingPathComponent("held/limit\(index).png")) { sink.yield((index, $0)) }
                }
                await ImageDownloaderTests.wait(for: .arrived("/held/limit0.png"), in: &events)
                #expect(downloader.currentDownloadCount == 2)
                downloader.configuration.maximumConcurrentDownloads = 2
                // The second starts while the first is still held: both reach the gate before either is let go
                // (arriving is logged before the gate is reached, so wait for the gate itself).
                await ImageDownloaderTests.wait(for: .arrived("/held/limit1.png"), in: &events)
                var polls = 0
                while await server.log.inFlight < 2, polls < 60_000 {
                    try await Task.sleep(for: .milliseconds(1))
                    polls += 1
                }
                await server.gates.releaseAll()
                for await completion in results.prefix(2) { _ = try completion.result.get() }
            }
            #expect(await server.log.maximumInFlight == 2)
        }
    }
}
