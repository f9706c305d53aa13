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
              let since = HTTPDate.date(ifModifiedSince), let modified = HTTPDate.date(lastModified)
        else { return false }
        return since >= modified
    }
}
