/// One `--allow-source` prefix (imgproxy's `IMGPROXY_ALLOWED_SOURCES`): a source matches when its scheme and
/// port are the prefix's, its host is the prefix's host and its path starts with the prefix's path at a segment
/// boundary. A `*` in the host or the path matches any run of characters but `/`, as in imgproxy.
///
/// `https://cdn.example/images/` allows `https://cdn.example/images/a.jpg` but neither
/// `https://cdn.example.evil.example/images/a.jpg`, `http://cdn.example/images/a.jpg`,
/// `https://cdn.example:8443/images/a.jpg` nor `https://cdn.example/imagesX.jpg`; `https://cdn.example/images`
/// (no trailing slash) allows `/images` itself and everything under `/images/`. `https://*.cdn.example/` allows
/// `https://eu.cdn.example/a.jpg` and `https://a.b.cdn.example/a.jpg`, and `https://cdn.example/*/thumbs/`
/// allows `https://cdn.example/2024/thumbs/a.jpg`. The host is compared after the source is parsed strictly
/// (``SourceURL``), so a `*` never spans user information, a query or a second URL.
public struct SourcePrefix: Sendable, Hashable, CustomStringConvertible {
    /// The prefix as given.
    public let description: String
    private let scheme: String
    private let port: Int
    /// The host, when the prefix's has no wildcard.
    private let exactHost: SourceURL.Host?
    /// The lowercased host with its wildcards.
    private let hostPattern: String
    private let pathPattern: String

    /// Parses a prefix; it follows the rules of ``SourceURL`` (read with each `*` as a letter) and may not have a
    /// query.
    public init(_ text: String) throws(SourceURLError) {
        let url = try SourceURL(parsing: String(text.map { $0 == "*" ? "w" : $0 }))
        guard url.query == nil else { throw SourceURLError(.malformed, "an allowed source prefix must not have a query") }
        self.description = text
        self.scheme = url.scheme
        self.port = url.port
        // The host and path as written, wildcards kept: the text after `://` up to the first `/`, without its port.
        let afterScheme = text[(text.firstRange(of: "://")?.upperBound ?? text.startIndex)...]
        let authority = afterScheme.prefix { $0 != "/" }
        let path = afterScheme.dropFirst(authority.count)
        var host = authority.hasPrefix("[") ? authority.prefix { $0 != "]" }.dropFirst() : authority.prefix { $0 != ":" }
        if host.hasSuffix(".") { host = host.dropLast() }
        self.hostPattern = host.lowercased()
        self.exactHost = host.contains("*") ? nil : url.host
        self.pathPattern = path.isEmpty ? "/" : String(path)
    }

    /// Whether `source` is under this prefix.
    public func matches(_ source: SourceURL) -> Bool {
        guard source.scheme == scheme, source.port == port else { return false }
        if let exactHost {
            guard source.host == exactHost else { return false }
        } else {
            guard case .name(let host) = source.host, Wildcard.ends(of: hostPattern, in: Substring(host)).contains(host.endIndex) else { return false }
        }
        let path = Substring(source.path)
        return Wildcard.ends(of: pathPattern, in: path).contains { end in
            pathPattern.hasSuffix("/") || end == path.endIndex || path[end] == "/"
        }
    }
}
