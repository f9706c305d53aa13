import Foundation

/// Reads a `Retry-After` header value: a number of seconds, or an HTTP date (RFC 9110 section 10.2.3).
enum RetryAfter {
    /// The three date forms HTTP allows: IMF-fixdate, the obsolete RFC 850 form, and C's asctime.
    private static let dateFormats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]

    /// How long to wait according to `value`, measured from `now`; a date in the past means no wait.
    /// `nil` when the value is neither a non-negative integer nor an HTTP date.
    static func delay(from value: String, now: Date = Date()) -> Duration? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(value) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = date(from: value) else { return nil }
        return .milliseconds(max(0, Int((date.timeIntervalSince(now) * 1000).rounded(.up))))
    }

    /// Parses an HTTP date in any of its three forms (always GMT).
    static func date(from value: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        // asctime pads the day with a space ("Nov  6"); collapse runs of spaces first.
        let collapsed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in dateFormats {
            formatter.dateFormat = format
            if let date = formatter.date(from: collapsed) { return date }
        }
        return nil
    }
}
