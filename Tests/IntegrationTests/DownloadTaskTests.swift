import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// Progress and cancellation of `data(for:)`, the shared downloader (SPEC DL-33, DL-44) and
/// `Retry-After` given as a date.
@Suite struct DownloadTaskTests {
    @Test func progressReportsEachChunkOfTheBytes() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = try #require(URL(string: "\(base)/large?bytes=200000"))
                let reports = LockedValue<[DownloadProgress]>([])
                let result = try await downloader.data(for: url) { progress in reports.withLock { $0.append(progress) } }
                let seen = reports.withLock { $0 }
                #expect(seen.count > 1)
                #expect(seen.allSatisfy { $0.expectedBytes == 200_000 && $0.url == url && $0.data == nil })
                #expect(seen.last?.receivedBytes == result.data.count)
            }
        }
    }

    @Test func aCancelledCallerThrowsCancelled() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let task = Task { try await downloader.data(for: base.appendingPathComponent("held/task.png")) }
                task.cancel()
                await #expect { _ = try await task.value } throws: { ($0 as? ImageDownloadError)?.code == .cancelled }
            }
        }
    }

    /// With one download slot, one caller's transfer held at the origin and another's waiting in the queue,
    /// cancelling both (in either order) ends both at once and leaves no download behind: the cancelled
    /// transfer does not start the waiting one, nor run to its timeout.
    @Test(arguments: [true, false]) func cancellingARunningAndAQueuedDownloadEndsBothAtOnce(runningFirst: Bool) async throws {
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.maximumConcurrentDownloads = 1
            configuration.timeout = .seconds(60)
            try await withImageDownloader(configuration: configuration) { downloader in
                let running = Task { try await downloader.data(for: base.appendingPathComponent("held/running.png")) }
                try await eventually { await server.log.inFlight == 1 }
                let queued = Task { try await downloader.data(for: base.appendingPathComponent("held/queued.png")) }
                try await eventually { downloader.currentDownloadCount == 2 }
                let start = ContinuousClock.now
                if runningFirst { running.cancel(); queued.cancel() } else { queued.cancel(); running.cancel() }
                for task in [running, queued] {
                    await #expect { _ = try await task.value } throws: { ($0 as? ImageDownloadError)?.code == .cancelled }
                }
                try await eventually { downloader.currentDownloadCount == 0 }
                #expect(ContinuousClock.now - start < .seconds(10), "a cancelled transfer ran on towards its timeout")
            }
        }
    }

    @Test func dl44TheSharedDownloaderWorksAndIgnoresShutdown() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await ImageDownloader.shared.shutdown()
            let result = try await ImageDownloader.shared.image(for: base.appendingPathComponent("image/shared.png"))
            #expect(result.image.pixelSize == PixelSize(width: 16, height: 8))
            #expect(ImageDownloader.shared === ImageDownloader.shared)
        }
    }

    @Test func theSharedDownloaderIsConfiguredInPlace() async throws {  // SPEC DL-33, DL-36
        let server = try TestImageServer()
        try await server.run { base in
            ImageDownloader.shared.configuration.headers["X-Shared-Test"] = "yes"
            defer { ImageDownloader.shared.configuration.headers["X-Shared-Test"] = nil }
            _ = try await ImageDownloader.shared.data(for: base.appendingPathComponent("image/configured.png"))
            #expect(await server.log.headers(of: "/image/configured.png").first?["x-shared-test"] == "yes")
        }
    }

    @Test func retryAfterAsAnHTTPDateIsHonoured() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let (clock, sleeps) = RetryTests.recordingClock()
            try await withImageDownloader(configuration: RetryTests.configuration(clock)) { downloader in
                _ = try await downloader.image(for: URL(string: "\(base)/flaky/date.png?date")!)
            }
            // The date is 7 s ahead when sent, to the second: between 5 and 8 s remain when it is read.
            let waits = sleeps.sleeps.withLock { $0 }
            #expect(waits.count == 2)
            #expect(waits.allSatisfy { $0 > .seconds(5) && $0 <= .seconds(8) })
        }
    }
}
