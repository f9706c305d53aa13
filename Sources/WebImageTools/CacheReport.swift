import WebImageKit
/// What `webimage cache info|clean|clear` reports about one disk cache directory.
package struct CacheReport: Codable, Sendable, Equatable {
    /// The action that produced the report: `info`, `clean` or `clear`.
    package var action: String
    /// The cache directory (`<root>/<namespace>`).
    package var directory: String
    /// Entries in the directory after the action.
    package var entries: Int
    /// Bytes (allocated on disk) the entries take after the action.
    package var bytes: Int
    /// Entries removed by the action: expired, trimmed by size, or all of them for `clear`.
    package var removedEntries: Int
    /// Bytes freed by the action.
    package var removedBytes: Int
    /// For `clean`: entries removed because they had expired.
    package var expiredEntries: Int?
    /// For `clean`: entries removed by the size pass, oldest first.
    package var trimmedEntries: Int?

    /// Creates a report.
    package init(
        action: String, directory: String, entries: Int, bytes: Int, removedEntries: Int = 0,
        removedBytes: Int = 0, expiredEntries: Int? = nil, trimmedEntries: Int? = nil
    ) {
        self.action = action
        self.directory = directory
        self.entries = entries
        self.bytes = bytes
        self.removedEntries = removedEntries
        self.removedBytes = removedBytes
        self.expiredEntries = expiredEntries
        self.trimmedEntries = trimmedEntries
    }

    /// A one-line human-readable summary.
    package var line: String {
        switch action {
        case "clean":
            "\(directory): removed \(removedEntries) entries (\(expiredEntries ?? 0) expired, \(trimmedEntries ?? 0) "
                + "over the size limit), \(removedBytes) bytes; \(entries) entries, \(bytes) bytes left"
        case "clear":
            "\(directory): removed \(removedEntries) entries, \(removedBytes) bytes"
        default:
            "\(directory): \(entries) entries, \(bytes) bytes"
        }
    }
}
