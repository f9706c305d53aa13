import Foundation

/// One cookie as RFC 6265 section 5.3 stores it, and the rules that decide where it goes (section 5.4).
struct Cookie: Sendable, Equatable {
    var name: String
    var value: String
    /// The host of a host-only cookie, else the domain it and its subdomains get it (no leading dot).
    var domain: String
    var isHostOnly: Bool
    var path: String
    var isSecure: Bool
    /// Kept as received; it hides a cookie from scripts in browsers, and WebImageKit has no scripts.
    var isHTTPOnly: Bool
    /// `nil` for a session cookie, kept until the jar is emptied.
    var expires: Date?
    /// Orders cookies of equal path length by creation (section 5.4, step 2).
    var creation: UInt64 = 0

    func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

    /// Whether this cookie is sent with a request for `host` and `path` (section 5.4, step 1).
    func isSent(toHost host: String, path requestPath: String, secureChannel: Bool) -> Bool {
        guard !isSecure || secureChannel else { return false }
        guard isHostOnly ? host == domain : Self.domain(host, matches: domain) else { return false }
        return Self.path(requestPath, matches: path)
    }

    /// Whether `other` is the same cookie as this one: same name, domain and path (section 5.3, step 11).
    func replaces(_ other: Cookie) -> Bool {
        name == other.name && domain == other.domain && path == other.path
    }

    /// Domain matching (section 5.1.3): equal, or a subdomain of `domain` that is a host name, not an IP address.
    static func domain(_ host: String, matches domain: String) -> Bool {
        host == domain || (host.hasSuffix("." + domain) && !isIPAddress(host))
    }

    /// Path matching (section 5.1.4): equal, or below `cookiePath` at a `/` boundary.
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath.dropFirst(cookiePath.count).first == "/"
    }

    /// The default path of a request path (section 5.1.4): up to, not including, its last `/`; at least `/`.
    static func defaultPath(of requestPath: String) -> String {
        guard requestPath.hasPrefix("/"), let slash = requestPath.lastIndex(of: "/"), slash != requestPath.startIndex
        else { return "/" }
        return String(requestPath[..<slash])
    }

    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber })
    }
}

extension Cookie {
    /// Parses a `Set-Cookie` value received from `host` at `requestPath` (sections 5.2 and 5.3). `nil`: the
    /// header is ignored (no name, or a `Domain` the host may not set). An expired result deletes the cookie.
    init?(setCookie header: String, host: String, requestPath: String, now: Date) {
        var parts = header.split(separator: ";", omittingEmptySubsequences: false)[...]
        guard let pair = parts.popFirst(), let equals = pair.firstIndex(of: "=") else { return nil }
        name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        var maxAge: Date?
        var expiresAttribute: Date?
        var domainAttribute = ""
        var pathAttribute: String?
        isSecure = false
        isHTTPOnly = false
        for part in parts {
            let equals = part.firstIndex(of: "=")
            let key = part[..<(equals ?? part.endIndex)].trimmingCharacters(in: .whitespaces).lowercased()
            let value = equals.map { part[part.index(after: $0)...].trimmingCharacters(in: .whitespaces) } ?? ""
            switch key {
            case "expires": if let date = CookieDate.parse(value) { expiresAttribute = date }
            case "max-age": if let seconds = Self.maxAge(value) { maxAge = seconds <= 0 ? .distantPast : now + Double(seconds) }
            case "domain": if !value.isEmpty { domainAttribute = String(value.hasPrefix(".") ? value.dropFirst() : value[...]).lowercased() }
            case "path": pathAttribute = value.hasPrefix("/") ? value : nil
            case "secure": isSecure = true
            case "httponly": isHTTPOnly = true
            default: break
            }
        }
        expires = maxAge ?? expiresAttribute  // Max-Age wins (section 5.3, step 3)
        // A Domain without an inner dot ("com", "test") is treated as a public suffix (section 5.3, step 5).
        if !domainAttribute.isEmpty, !domainAttribute.contains(".") {
            guard domainAttribute == host else { return nil }
            domainAttribute = ""
        }
        if domainAttribute.isEmpty {
            domain = host
            isHostOnly = true
        } else {
            guard Self.domain(host, matches: domainAttribute) else { return nil }
            domain = domainAttribute
            isHostOnly = false
        }
        path = pathAttribute ?? Self.defaultPath(of: requestPath)
    }

    /// A `Max-Age` value (section 5.2.2): an optional `-` and digits, else ignored; clamped to a century.
    private static func maxAge(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let magnitude = Int(digits.prefix(10)) ?? 0
        let clamped = digits.count > 10 ? 3_155_760_000 : min(magnitude, 3_155_760_000)
        return text.hasPrefix("-") ? -clamped : clamped
    }
}
