import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// Server faults through the whole manager (issue 8 item 3): each load ends with the right typed error (or
/// succeeds after a retry when asked), nothing is stored in the cache, and the URL is put on the failed-URL
/// list only for permanent errors.
@Suite struct FaultTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        let path: String
        /// The downloader's error code, or `nil` when the load must succeed.
        let code: ImageDownloadError.Code?
        let blocked: Bool
        var testDescription: String { path }
    }

    static let cases: [Expectation] = [
        Expectation(path: "fault/stall", code: .timeout, blocked: false),
        Expectation(path: "fault/drip-image", code: nil, blocked: false),
        Expectation(path: "reset", code: .network, blocked: false),
        Expectation(path: "short", code: .network, blocked: false),
        Expectation(path: "fault/gzip-bomb", code: .decodeFailed, blocked: true),
        Expectation(path: "loop/a", code: .tooManyRedirects, blocked: true),
        Expectation(path: "fault/too-many-requests", code: .badStatus(429), blocked: false),
        Expectation(path: "fault/garbage", code: .decodeFailed, blocked: true),
        Expectation(path: "fault/huge-dimensions", code: .decodeFailed, blocked: true),
        Expectation(path: "large?bytes=50000000", code: .tooLarge, blocked: true),
        Expectation(path: "status/500", code: .badStatus(500), blocked: true),  // only 408, 429, 502–504 are transient
        Expectation(path: "status/503", code: .badStatus(503), blocked: false),
        Expectation(path: "fault/overlong", code: nil, blocked: false),  // HTTP framing keeps the declared bytes
        Expectation(path: "status/404", code: .badStatus(404), blocked: true),
        Expectation(path: "html", code: .badContentType, blocked: true),
    ]

    /// Only the stalled server needs its timeout to fire, so only it gets a short one (700 ms idle); every
    /// other case gets a minute, far above what it needs on a loaded machine, so it cannot end in `timeout`.
    static func configuration(for path: String = "") -> ImageDownloader.Configuration {
        var configuration = ImageDownloader.Configuration()
        configuration.timeout = path == "fault/stall" ? .milliseconds(700) : .seconds(60)  // idle: a drip is not cut off
        configuration.maximumResponseSize = 1 << 20
        return configuration
    }

    @Test(arguments: cases)
    func aFaultEndsWithItsTypedErrorStoresNothingAndBlocksOnlyPermanentFailures(_ expectation: Expectation) async throws {
        #expect(!TestImageServer.faultPayloads.huge.isEmpty && !TestImageServer.faultPayloads.bomb.isEmpty)
        let server = try TestImageServer()
        let directory = try TemporaryDirectory("manager")
        defer { directory.remove() }
        let root = directory.url
        try await server.run { base in
            try await withImageDownloader(configuration: Self.configuration(for: expectation.path)) { downloader in
                let cache = ImageCache(namespace: "faults", root: root)
                let manager = ImageManager(cache: cache, loader: downloader)
                let url = try #require(URL(string: "\(base)/\(expectation.path)"))
                do {
                    let loaded = try await manager.loadImage(from: url, options: [.waitStoreCache])
                    #expect(expectation.code == nil, "loaded \(loaded.image.pixelSize), expected \(String(describing: expectation.code))")
                    #expect(await cache.contains(url.absoluteString) != .notCached)
                } catch let error as ImageLoadError {
                    #expect(error.code == .loadFailed)
                    #expect(error.downloadError?.code == expectation.code, "\(error)")
                    #expect(await cache.contains(url.absoluteString) == .notCached)
                    #expect(try await cache.diskCache.count() == 0)
                }
                #expect(manager.failedURLs.contains(url) == expectation.blocked)
            }
        }
    }

    @Test func aPNGClaiming60000SquarePixelsFailsAsTooLargeBeforeAnyPixelIsAllocated() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader(configuration: Self.configuration()) { downloader in
                do {
                    _ = try await downloader.image(for: base.appendingPathComponent("fault/huge-dimensions"))
                    Issue.record("a 60000×60000 image must not decode")
                } catch let error as ImageDownloadError {
                    #expect(error.codingError?.code == .imageTooLarge)
                }
            }
        }
    }

    @Test func tooManyRequestsSucceedsWithRetryAfterTheServerRecovers() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let (clock, sleeps) = RetryTests.recordingClock()
            let directory = try TemporaryDirectory("manager")
            defer { directory.remove() }
            try await withImageDownloader(configuration: RetryTests.configuration(clock)) { downloader in
                let manager = ImageManager(cache: ImageCache(namespace: "retry", root: directory.url), loader: downloader)
                let loaded = try await manager.loadImage(from: base.appendingPathComponent("flaky/retry.png"))
                #expect(loaded.image.pixelSize == PixelSize(width: 16, height: 8))
                #expect(sleeps.sleeps.withLock { $0 } == [.seconds(7), .seconds(7)])
                #expect(manager.failedURLs.isEmpty)
            }
        }
    }
}
