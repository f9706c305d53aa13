import Foundation
import Testing
@testable import WebImageKit

/// Reading `Retry-After` (RFC 9110 section 10.2.3): seconds or an HTTP date, in all three date forms.
@Suite struct RetryAfterTests {
    /// 1994-11-06 08:49:07 GMT, thirty seconds before the dates below.
    let now = Date(timeIntervalSince1970: 784_111_747)

    @Test func secondsAreTakenAsTheyAre() {
        #expect(RetryAfter.delay(from: "120") == .seconds(120))
        #expect(RetryAfter.delay(from: " 0 ") == .zero)
    }

    @Test func anHTTPDateIsTheTimeLeftUntilIt() {
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(30))
    }

    @Test func theObsoleteDateFormsAreReadToo() {
        #expect(RetryAfter.delay(from: "Sunday, 06-Nov-94 08:49:37 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.delay(from: "Sun Nov  6 08:49:37 1994", now: now) == .seconds(30))
    }

    @Test func aDateInThePastMeansNoWait() {
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)
    }

    @Test func anythingElseIsIgnored() {
        #expect(RetryAfter.delay(from: "soon") == nil)
        #expect(RetryAfter.delay(from: "-5") == nil)
        #expect(RetryAfter.delay(from: "") == nil)
    }
}
