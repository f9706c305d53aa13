import Testing
@testable import WebImageKit

/// The back-off arithmetic of ``RetryPolicy`` (issue item 8).
@Suite struct RetryPolicyTests {
    let unavailable = ImageDownloadError(.badStatus(503), "unavailable")

    @Test func waitsDoubleUpToTheCapAndStopAtTheAttemptLimit() {
        let policy = RetryPolicy(maximumAttempts: 5, initialDelay: .seconds(1), maximumDelay: .seconds(3), jitter: 0)
        let delays = (1...5).map { policy.delay(after: $0, failedWith: unavailable) }
        #expect(delays == [.seconds(1), .seconds(2), .seconds(3), .seconds(3), nil])
    }

    @Test func jitterSpreadsTheWaitBothWays() {
        let policy = RetryPolicy(initialDelay: .seconds(10), jitter: 0.5)
        #expect(policy.delay(after: 1, failedWith: unavailable, random: { 0 }) == .seconds(5))
        #expect(policy.delay(after: 1, failedWith: unavailable, random: { 1 }) == .seconds(15))
    }

    @Test func retryAfterWinsUnlessItIsTooLong() {
        let policy = RetryPolicy(maximumRetryAfter: .seconds(60))
        let soon = ImageDownloadError(.badStatus(429), "slow down", retryAfter: .seconds(30))
        let late = ImageDownloadError(.badStatus(429), "slow down", retryAfter: .seconds(120))
        #expect(policy.delay(after: 1, failedWith: soon) == .seconds(30))
        #expect(policy.delay(after: 1, failedWith: late) == nil)
    }

    @Test func permanentErrorsAreNeverRetried() {
        let policy = RetryPolicy(maximumAttempts: 10)
        #expect(policy.delay(after: 1, failedWith: ImageDownloadError(.badStatus(404), "gone")) == nil)
        #expect(policy.delay(after: 1, failedWith: ImageDownloadError(.decodeFailed, "bad")) == nil)
        #expect(policy.delay(after: 1, failedWith: ImageDownloadError(.timeout, "slow")) != nil)
    }
}
