/// imgproxy's wildcards in source prefixes and URL replacements: `*` matches any run of characters but `/`.
enum Wildcard {
    /// Whether `text` starts with `pattern`.
    static func text(_ text: String, startsWith pattern: String) -> Bool {
        !ends(of: pattern, in: Substring(text)).isEmpty
    }

    /// Where a match of `pattern` at the start of `text` can end.
    static func ends(of pattern: String, in text: Substring) -> Set<String.Index> {
        var ends: Set<String.Index> = [text.startIndex]
        for (index, piece) in pattern.split(separator: "*", omittingEmptySubsequences: false).enumerated() {
            var starts = ends
            if index > 0 {
                // The `*` before this piece: extend each end over characters that are not `/`.
                for end in ends {
                    var position = end
                    while position < text.endIndex, text[position] != "/" {
                        position = text.index(after: position)
                        starts.insert(position)
                    }
                }
            }
            ends = Set(starts.compactMap { start in text[start...].hasPrefix(piece) ? text.index(start, offsetBy: piece.count) : nil })
            if ends.isEmpty { return [] }
        }
        return ends
    }

    /// The first match of `pattern` at the start of `text`, each `*` as long as it can be (as a regular expression's
    /// greedy `([^/]*)`): where it ends and what each `*` matched; nil when `text` does not start with `pattern`.
    static func match(_ pattern: String, in text: Substring) -> (end: String.Index, captures: [Substring])? {
        match(pieces: pattern.split(separator: "*", omittingEmptySubsequences: false)[...], in: text, from: text.startIndex)
    }

    private static func match(pieces: ArraySlice<Substring>, in text: Substring, from start: String.Index) -> (end: String.Index, captures: [Substring])? {
        guard let piece = pieces.first, text[start...].hasPrefix(piece) else { return nil }
        let afterPiece = text.index(start, offsetBy: piece.count)
        let rest = pieces.dropFirst()
        guard !rest.isEmpty else { return (afterPiece, []) }
        // The `*` after `piece`: try its longest run first.
        var limit = afterPiece
        while limit < text.endIndex, text[limit] != "/" { limit = text.index(after: limit) }
        var end = limit
        while true {
            if let tail = match(pieces: rest, in: text, from: end) {
                return (tail.end, [text[afterPiece..<end]] + tail.captures)
            }
            if end == afterPiece { return nil }
            end = text.index(before: end)
        }
    }
}
