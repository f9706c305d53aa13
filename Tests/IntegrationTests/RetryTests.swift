import Foundation
import Testing
import WebImageKit

/// Opt-in retry of transient failures (issue item 8).
@Suite struct RetryTests {
    /// A clock whose `sleep` records the wait and returns at once.
    final class RecordingClock: Sendable {
        let sleeps = LockedValue<[Duration]>([])
        var clock: DownloaderClock {
            DownloaderClock(now: { .zero }, sleep: { [self] delay in sleeps.withLock { $0.append(delay) } })
        }
    }

    static func recordingClock() -> (DownloaderClock, RecordingClock) {
        let recorder = RecordingClock()
        return (recorder.clock, recorder)
    }

    static func configuration(_ clock: DownloaderClock, jitter: Double = 0) -> ImageDownloader.Configuration {
        var configuration = ImageDownloader.Configuration()
        configuration.clock = clock
        configuration.retryPolicy = RetryPolicy(maximumAttempts: 3, initialDelay: .seconds(1), jitter: jitter)
        return configuration
    }

    @Test func twoServiceUnavailableAnswersThenSuccessTakeThreeRequestsHonouringRetryAfter() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let (clock, sleeps) = Self.recordingClock()
            try await withImageDownloader(configuration: Self.configuration(clock)) { downloader in
                let result = try await downloader.image(for: base.appendingPathComponent("flaky/a.png"))
                #expect(result.image.pixelSize == PixelSize(width: 16, height: 8))
            }
            #expect(await server.log.count("/flaky/a.png") == 3)
            #expect(sleeps.sleeps.withLock { $0 } == [.seconds(7), .seconds(7)])
        }
    }

    @Test func withoutRetryAfterTheWaitsGrowExponentially() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let (clock, sleeps) = Self.recordingClock()
            try await withImageDownloader(configuration: Self.configuration(clock)) { downloader in
                _ = try await downloader.image(for: URL(string: "\(base)/flaky/b.png?plain")!)
            }
            #expect(sleeps.sleeps.withLock { $0 } == [.seconds(1), .seconds(2)])
        }
    }

    @Test func aPermanentFailureIsNotRetried() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let (clock, sleeps) = Self.recordingClock()
            let error = try await ImageDownloaderTests.error(base.appendingPathComponent("status/404"), Self.configuration(clock))
            #expect(error?.code == .badStatus(404))
            #expect(await server.log.count("/status/404") == 1)
            #expect(sleeps.sleeps.withLock { $0 }.isEmpty)
        }
    }

    @Test func theLastAttemptsErrorIsDeliveredWhenAttemptsRunOut() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let (clock, _) = Self.recordingClock()
            var configuration = Self.configuration(clock)
            configuration.retryPolicy?.maximumAttempts = 2
            let error = try await ImageDownloaderTests.error(base.appendingPathComponent("flaky/c.png"), configuration)
            #expect(error?.code == .badStatus(503))
            #expect(await server.log.count("/flaky/c.png") == 2)
        }
    }
}
