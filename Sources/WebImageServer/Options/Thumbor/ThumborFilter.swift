import Foundation

/// One filter of a thumbor URL's `filters:` segment: its name and its arguments as written.
///
/// thumbor splits the segment at `):`, so an argument may itself hold `:` (a watermark URL) but not `):`.
/// Arguments are split at commas outside single quotes, with surrounding spaces removed.
struct ThumborFilter: Sendable, Hashable {
    /// The filter's name (`quality` in `quality(80)`).
    var name: String
    /// The arguments, in order; empty for `grayscale()`.
    var arguments: [String]

    /// The filters of `text` (the segment after `filters:`, still holding its final `)`); a part that is not
    /// `name(arguments)` is dropped, as thumbor drops a filter it cannot read.
    static func list(_ text: Substring) -> [ThumborFilter] {
        var parts = text.components(separatedBy: "):")
        guard !parts.isEmpty else { return [] }
        for index in parts.indices.dropLast() { parts[index] += ")" }
        return parts.compactMap(ThumborFilter.init(call:))
    }

    /// Creates a filter.
    init(name: String, arguments: [String]) {
        self.name = name
        self.arguments = arguments
    }

    /// `name(arguments)`, or nil.
    init?(call: String) {
        guard let open = call.firstIndex(of: "("), call.hasSuffix(")") else { return nil }
        let name = call[..<open]
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else { return nil }
        let inside = call[call.index(after: open)..<call.index(before: call.endIndex)]
        self.init(name: String(name), arguments: Self.arguments(inside))
    }

    /// `inside` split at commas outside single quotes, each argument trimmed of spaces; none when empty.
    private static func arguments(_ inside: Substring) -> [String] {
        guard !inside.allSatisfy({ $0 == " " }) else { return [] }
        var arguments: [String] = []
        var current = ""
        var quoted = false
        for character in inside {
            if character == "'" { quoted.toggle() }
            if character == ",", !quoted {
                arguments.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        arguments.append(current)
        return arguments.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
