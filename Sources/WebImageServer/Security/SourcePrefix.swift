/// One `--allow-source` prefix: a source matches when its scheme, host and port are the prefix's exactly and
/// its path starts with the prefix's path at a segment boundary.
///
/// `https://cdn.example/images/` allows `https://cdn.example/images/a.jpg` but neither
/// `https://cdn.example.evil.example/images/a.jpg`, `http://cdn.example/images/a.jpg`,
/// `https://cdn.example:8443/images/a.jpg` nor `https://cdn.example/imagesX.jpg`; `https://cdn.example/images`
/// (no trailing slash) allows `/images` itself and everything under `/images/`.
public struct SourcePrefix: Sendable, Hashable, CustomStringConvertible {
    /// The prefix as a parsed URL (its query must be empty).
    public let url: SourceURL
    /// The prefix as given.
    public let description: String

    /// Parses a prefix; it follows the rules of ``SourceURL`` and may not have a query.
    public init(_ text: String) throws(SourceURLError) {
        let url = try SourceURL(parsing: text)
        guard url.query == nil else { throw SourceURLError(.malformed, "an allowed source prefix must not have a query") }
        self.url = url
        self.description = text
    }

    /// Whether `source` is under this prefix.
    public func matches(_ source: SourceURL) -> Bool {
        guard source.scheme == url.scheme, source.host == url.host, source.port == url.port else { return false }
        let prefix = url.path
        if prefix == "/" || prefix.hasSuffix("/") { return source.path.hasPrefix(prefix) }
        return source.path == prefix || source.path.hasPrefix(prefix + "/")
    }
}
