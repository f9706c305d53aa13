import Foundation
import HTTPTypes

/// A request's conditional headers: `If-None-Match` and `If-Modified-Since`.
struct Conditions: Sendable {
    let ifNoneMatch: String?
    let ifModifiedSince: String?

    init(_ headers: HTTPFields) {
        ifNoneMatch = headers[.ifNoneMatch]
        ifModifiedSince = headers[.ifModifiedSince]
    }

    /// Whether `If-Modified-Since` is at or after `lastModified` (both HTTP dates; false when either does not parse).
    func notModifiedSince(_ lastModified: String?) -> Bool {
        guard let ifModifiedSince, let lastModified,
              let since = Self.date(ifModifiedSince), let modified = Self.date(lastModified)
        else { return false }
        return since >= modified
    }

    /// An HTTP date in its preferred form (`Tue, 24 Nov 2026 10:00:00 GMT`).
    static func date(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
