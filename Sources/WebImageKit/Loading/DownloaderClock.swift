/// The time source of an ``ImageDownloader``: when it is, and how to wait. Tests inject a manual one so
/// that throttling and retry back-off need no real waiting.
///
/// ```swift
/// var configuration = ImageDownloader.Configuration()
/// configuration.clock = DownloaderClock(now: { .zero }, sleep: { _ in })  // time stands still
/// ```
package struct DownloaderClock: Sendable {
    /// The time elapsed since some fixed, arbitrary origin; it never goes backwards.
    package var now: @Sendable () -> Duration
    /// Waits for the given duration, throwing `CancellationError` when the task is cancelled.
    package var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a clock from its two functions.
    package init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The real, monotonic clock (`ContinuousClock`).
    package static let continuous: DownloaderClock = {
        let origin = ContinuousClock.now
        return DownloaderClock(
            now: { ContinuousClock.now - origin },
            sleep: { try await Task.sleep(for: $0, clock: .continuous) }
        )
    }()
}
