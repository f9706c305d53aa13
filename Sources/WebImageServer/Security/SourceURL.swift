/// An `http` or `https` URL taken apart strictly, so that the allowlist and the address check see the host
/// the HTTP client will connect to.
///
/// Refused: other schemes, user information (`http://good.example@evil.example/`), backslashes, spaces and
/// control characters, fragments, percent-escapes or non-ASCII in the host (IDNs must be punycode), numeric
/// hosts that are not plain dotted-decimal IPv4 (`2130706433`, `0x7f.1`, `0177.0.0.1`), IPv6 zones, and `.`
/// or `..` path segments (escaped or not), which would make path prefixes meaningless.
public struct SourceURL: Sendable, Hashable {
    /// The host: a lowercased name (without a trailing dot) or a literal address.
    public enum Host: Sendable, Hashable {
        /// A DNS name, lowercased.
        case name(String)
        /// A literal IPv4 or IPv6 address.
        case address(IPAddress)
    }

    /// `http` or `https`, lowercased.
    public var scheme: String
    /// The host.
    public var host: Host
    /// The port, the scheme's default when the URL names none.
    public var port: Int
    /// The path, at least `/`, as written (still percent-encoded).
    public var path: String
    /// The query after `?`, if any, as written.
    public var query: String?

    /// Parses `text`; throws ``SourceURLError`` with ``SourceURLError/Code/unsupportedScheme`` or
    /// ``SourceURLError/Code/malformed``.
    public init(parsing text: String) throws(SourceURLError) {
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" }) else {
            throw SourceURLError(.malformed, "the source URL contains spaces, control, non-ASCII characters or backslashes")
        }
        guard let schemeEnd = text.firstRange(of: "://") else { throw SourceURLError(.unsupportedScheme, "the source must be an http or https URL") }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw SourceURLError(.unsupportedScheme, "the source must be an http or https URL") }
        guard !text.contains("#") else { throw SourceURLError(.malformed, "the source URL must not have a fragment") }
        let afterScheme = text[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        guard !authority.contains("@") else { throw SourceURLError(.malformed, "the source URL must not contain user information") }
        let (host, port) = try Self.parseAuthority(authority, defaultPort: scheme == "https" ? 443 : 80)
        var rest = afterScheme[authorityEnd...]
        var query: String?
        if let questionMark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: questionMark)...])
            rest = rest[..<questionMark]
        }
        let path = rest.isEmpty ? "/" : String(rest)
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            let decoded = segment.replacingOccurrences(of: "%2e", with: ".", caseInsensitive: true)
            guard decoded != "." && decoded != ".." else {
                throw SourceURLError(.malformed, "the source URL path must not contain '.' or '..' segments")
            }
        }
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
    }

    private static func parseAuthority(_ authority: Substring, defaultPort: Int) throws(SourceURLError) -> (Host, Int) {
        var hostText = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw SourceURLError(.malformed, "an IPv6 host is not closed by ']'") }
            hostText = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw SourceURLError(.malformed, "unexpected characters after an IPv6 host") }
                portText = after.dropFirst()
            }
            guard let address = IPAddress.parseIPv6(hostText) else { throw SourceURLError(.malformed, "the IPv6 host is not valid") }
            return (.address(.v6(address)), try parsePort(portText, defaultPort: defaultPort))
        }
        if let colon = authority.firstIndex(of: ":") {
            hostText = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        let port = try parsePort(portText, defaultPort: defaultPort)
        var name = hostText.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 }), name.utf8.count <= 253,
            name.utf8.allSatisfy({ Self.isHostCharacter($0) })
        else { throw SourceURLError(.malformed, "the source host is not a valid host name") }
        if let last = labels.last, last.allSatisfy(\.isNumber) || last.hasPrefix("0x") {
            // WHATWG URL parsers and inet_aton read such hosts as IPv4 addresses: only the plain form is accepted.
            guard let address = IPAddress.parseIPv4(Substring(name)) else {
                throw SourceURLError(.malformed, "a numeric host must be a dotted-decimal IPv4 address")
            }
            return (.address(.v4(address)), port)
        }
        return (.name(name), port)
    }

    private static func parsePort(_ text: Substring?, defaultPort: Int) throws(SourceURLError) -> Int {
        guard let text, !text.isEmpty else { return defaultPort }
        guard text.utf8.count <= 5, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let port = Int(text), (1...65535).contains(port) else {
            throw SourceURLError(.malformed, "the source port is not a number from 1 to 65535")
        }
        return port
    }

    private static func isHostCharacter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }
}

extension Substring {
    /// The text with every occurrence of `target` replaced, compared ASCII case-insensitively.
    func replacingOccurrences(of target: String, with replacement: String, caseInsensitive: Bool) -> String {
        let lowered = caseInsensitive ? lowercased() : String(self)
        return lowered.split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
