/// One of imgproxy's `IMGPROXY_URL_REPLACEMENTS`: a source URL starting with `pattern` has that start replaced by
/// `replacement`, where `${1}`, `${2}`… stand for what the pattern's `*` wildcards matched (each any run of
/// characters but `/`). `mys3://=s3://my-bucket/images/` turns `mys3://a.jpg` into `s3://my-bucket/images/a.jpg`.
///
/// Replacements apply in order, each to the previous one's result, before the base URL is added; the result is
/// then checked like any source URL.
public struct URLReplacement: Sendable, Hashable {
    /// The start of the URLs to rewrite, with `*` wildcards.
    public let pattern: String
    /// What replaces it, with `${N}` for the N-th wildcard's text.
    public let replacement: String

    /// A replacement of `pattern` by `replacement`.
    public init(pattern: String, replacement: String) {
        self.pattern = pattern
        self.replacement = replacement
    }

    /// `url` with its start replaced, or `url` itself when it does not start with the pattern.
    public func apply(to url: String) -> String {
        guard let match = Wildcard.match(pattern, in: Substring(url)) else { return url }
        var result = replacement
        // Highest numbers first, so that `${1}` does not eat the start of `${10}`.
        for (index, capture) in match.captures.enumerated().reversed() {
            result = result.replacingAll("${\(index + 1)}", with: String(capture))
        }
        return result + url[match.end...]
    }

    /// Parses `PATTERN=REPLACEMENT;PATTERN=REPLACEMENT` (imgproxy's format); fails naming an entry without `=`.
    static func list(_ text: String) -> Result<[URLReplacement], InvalidEntry> {
        var replacements: [URLReplacement] = []
        for entry in text.split(separator: ";") where !entry.allSatisfy(\.isWhitespace) {
            guard let equals = entry.firstIndex(of: "=") else { return .failure(InvalidEntry(entry: String(entry))) }
            replacements.append(URLReplacement(
                pattern: String(entry[..<equals]).trimmingSpaces, replacement: String(entry[entry.index(after: equals)...]).trimmingSpaces))
        }
        return .success(replacements)
    }

    /// An entry without `=`.
    struct InvalidEntry: Error {
        let entry: String
    }
}

extension String {
    /// The text with every occurrence of `target` replaced by `replacement`.
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
