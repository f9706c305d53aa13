/// When and how soon a failed download is tried again (issue item 8). Off unless set in
/// ``ImageDownloader/Configuration/retryPolicy``.
///
/// Only transient failures are retried (``ImageDownloadError/isTransient``: timeouts, connection
/// failures, 408, 429, 502, 503, 504). The wait before retry *n* (1-based) is
/// `initialDelay × multiplier^(n-1)`, capped at ``maximumDelay`` and spread by ±``jitter``; when the
/// server sent `Retry-After` (seconds) with a 429 or 503, that wait is used instead, unless it exceeds
/// ``maximumRetryAfter``, in which case the failure is final. Waits use the downloader's clock.
///
/// ```swift
/// var configuration = ImageDownloader.Configuration()
/// configuration.retryPolicy = RetryPolicy(maximumAttempts: 4)
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// How many times the request is sent at most, the first included (default 3; 1 means no retry).
    public var maximumAttempts: Int
    /// The wait before the first retry (default 0.5 s).
    public var initialDelay: Duration
    /// The factor between consecutive waits (default 2).
    public var multiplier: Double
    /// The longest computed wait (default 30 s).
    public var maximumDelay: Duration
    /// The fraction by which each computed wait is randomly lengthened or shortened, 0…1 (default 0.2).
    public var jitter: Double
    /// The longest `Retry-After` honoured; a longer one ends the download with its error (default 60 s).
    public var maximumRetryAfter: Duration

    /// Creates a policy; every parameter has the documented default.
    public init(
        maximumAttempts: Int = 3,
        initialDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(30),
        jitter: Double = 0.2,
        maximumRetryAfter: Duration = .seconds(60)
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// How long to wait before trying again after `attempt` (1-based) failed with `error`, or `nil`
    /// when the failure is final. `random` supplies the jitter, a value in 0…1 (default: uniform).
    func delay(
        after attempt: Int,
        failedWith error: ImageDownloadError,
        random: () -> Double = { Double.random(in: 0...1) }
    ) -> Duration? {
        guard error.isTransient, attempt < maximumAttempts else { return nil }
        if let retryAfter = error.retryAfter {
            return retryAfter <= maximumRetryAfter ? max(retryAfter, .zero) : nil
        }
        let base = min(initialDelay * pow(multiplier, Double(attempt - 1)), maximumDelay)
        let spread = min(max(jitter, 0), 1)
        return max(base * (1 + spread * (2 * random() - 1)), .zero)
    }

    private func pow(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        for _ in 0..<max(0, Int(exponent)) { result *= base }
        return result
    }
}
