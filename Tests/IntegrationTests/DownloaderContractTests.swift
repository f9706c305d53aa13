import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// Public downloader behaviours no other test pins: the scale-down option, the token's URL, the empty-body
/// error and `cancelAll()` (SPEC DL-09, TK-01, OP-30, DL-42).
@Suite struct DownloaderContractTests {
    @Test func dl09ScaleDownLargeImagesDecodesWithinTheDefaultBudget() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            // The server's 16×8 PNG stands for an image over 60 MB: the coder puts 8×4 pixels' bytes in its place.
            let coder = BudgetCoder(budget: 8 * 4 * 4)
            let coders = ImageCodersManager(coders: [coder])
            let url = base.appendingPathComponent("image/large.png")
            try await withImageDownloader { downloader in
                let scaled = try await downloader.image(for: url, options: [.scaleDownLargeImages], coders: coders)
                #expect(scaled.image.pixelSize == PixelSize(width: 8, height: 4))
                #expect(scaled.data == server.png)  // the bytes stay the original's
                let full = try await downloader.image(for: url, coders: coders)
                #expect(full.image.pixelSize == PixelSize(width: 16, height: 8))

                let (results, sink) = AsyncStream.makeStream(of: Result<DownloadResult, ImageDownloadError>.self)
                downloader.download(url, options: [.scaleDownLargeImages], coders: coders) { sink.yield($0) }
                var iterator = results.makeAsyncIterator()
                let callback = try #require(await iterator.next()).get()
                #expect(callback.image.pixelSize == PixelSize(width: 8, height: 4))
            }
            let budget = ImageDecodingOptions.defaultScaleDownLimitBytes
            #expect(coder.requestedBudgets == [budget, nil, budget])
        }
    }

    @Test func tk01ATokenKnowsTheURLItDownloads() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = base.appendingPathComponent("image/token.png")
                let (results, sink) = AsyncStream.makeStream(of: Bool.self)
                let token = downloader.download(url) { sink.yield((try? $0.get()) != nil) }
                #expect(token.url == url)
                var iterator = results.makeAsyncIterator()
                #expect(await iterator.next() == true)
                #expect(token.url == url)  // still after completion
            }
        }
    }

    @Test func op30AnEmptyBodyFailsWithTheEmptyBodyError() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                do {
                    _ = try await downloader.data(for: base.appendingPathComponent("empty"))
                    Issue.record("an empty body must fail")
                } catch let error as ImageDownloadError {
                    #expect(error.code == .emptyBody)
                    #expect(!error.isTransient)
                }
            }
        }
    }

    /// SPEC DL-60: with no delegate to ask, a redirect is followed unchanged and the final response is the one checked.
    @Test func dl60ANormalRedirectIsFollowed() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = try #require(URL(string: base.absoluteString + "/redirect?to=/image/moved.png"))
                let downloaded = try await downloader.data(for: url)
                #expect(downloaded.data == server.png)
                #expect(downloaded.response.statusCode == 200)
                #expect(downloaded.response.url.path == "/image/moved.png")
            }
        }
    }

    @Test func dl42CancelAllFailsEveryRunningAndWaitingDownloadWithCancelled() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.maximumConcurrentDownloads = 1  // one runs, the other waits in the queue
            try await withImageDownloader(configuration: configuration) { downloader in
                var events = server.events.makeAsyncIterator()
                let (results, sink) = AsyncStream.makeStream(of: Result<DownloadResult, ImageDownloadError>.self)
                downloader.download(base.appendingPathComponent("held/running.png")) { sink.yield($0) }
                downloader.download(base.appendingPathComponent("held/waiting.png")) { sink.yield($0) }
                await ImageDownloaderTests.wait(for: .arrived("/held/running.png"), in: &events)
                let waiting = Task { try await downloader.data(for: base.appendingPathComponent("held/async.png")) }
                try await eventually { downloader.currentDownloadCount == 3 }
                downloader.cancelAll()
                var codes: [ImageDownloadError.Code] = []
                for await result in results.prefix(2) {
                    if case .failure(let error) = result { codes.append(error.code) }
                }
                #expect(codes == [.cancelled, .cancelled])
                do {
                    _ = try await waiting.value
                    Issue.record("an awaiting caller must be cancelled too")
                } catch let error as ImageDownloadError {
                    #expect(error.code == .cancelled)
                }
            }
            #expect(await server.log.count("/held/waiting.png") == 0)
            #expect(await server.log.count("/held/async.png") == 0)
        }
    }
}
