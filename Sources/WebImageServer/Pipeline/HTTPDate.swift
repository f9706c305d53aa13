import Foundation

/// HTTP dates in their preferred form (`Tue, 24 Nov 2026 10:00:00 GMT`), written and read.
enum HTTPDate {
    static func string(_ date: Date) -> String {
        formatter().string(from: date)
    }

    /// The date, or nil when `text` is not in the preferred form.
    static func date(_ text: String) -> Date? {
        formatter().date(from: text.trimmingCharacters(in: .whitespaces))
    }

    /// A new formatter each time: `DateFormatter` is not `Sendable`.
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
