public import Foundation

/// An in-memory cookie store, one per ``ImageDownloader``, used by requests with
/// ``DownloadOptions/handleCookies``, following RFC 6265:
///
/// - `Domain`: without it a cookie goes back only to the host that set it; with it, to that domain and its
///   subdomains, if the host is inside the domain (else the cookie is ignored). A `Domain` without a dot
///   (`com`, `test`) is taken as a public suffix: ignored, unless it is the host itself (then host-only).
/// - `Path`: a cookie goes only to its path and below; without the attribute, the path is the request's
///   directory (`/a/b/c.png` → `/a/b`).
/// - `Secure`: such a cookie is sent over `https` only, never over plain `http`.
/// - `Expires` and `Max-Age`: past ones delete the cookie, and expired cookies are never sent; `Max-Age`
///   wins when both are given. Without either, a cookie lasts as long as the jar (a session cookie).
/// - `HttpOnly` is kept but changes nothing: it hides cookies from browser scripts, and there are none here.
///
/// Cookies are sent with the longest path first, then the oldest first. Nothing is written to disk, and
/// there is no public suffix list: a cookie for `co.uk`, say, is accepted from `shop.co.uk`.
public final class CookieJar: Sendable {
    private struct State {
        var cookies: [Cookie] = []
        var nextCreation: UInt64 = 0
    }

    private let state = LockedValue(State())
    private let now: @Sendable () -> Date

    /// Creates an empty jar.
    public init() {
        now = { Date() }
    }

    /// Creates an empty jar that reads the time from `now` (for expiry tests).
    init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The cookies a request for `url` would send, name → value (for a name stored under several paths,
    /// the value of the longest path).
    public func cookies(for url: URL) -> [String: String] {
        var result: [String: String] = [:]
        for cookie in sent(to: url) where result[cookie.name] == nil { result[cookie.name] = cookie.value }
        return result
    }

    /// The `Cookie` request header for `url`, or `nil` when no cookie goes there.
    func header(for url: URL) -> String? {
        let cookies = sent(to: url)
        guard !cookies.isEmpty else { return nil }
        return cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Stores the cookies of `Set-Cookie` header values received from `url`.
    public func store(setCookieHeaders values: [String], from url: URL) {
        guard let host = url.host?.lowercased(), !host.isEmpty, !values.isEmpty else { return }
        let now = now()
        let path = url.path(percentEncoded: true)
        let received = values.compactMap { Cookie(setCookie: $0, host: host, requestPath: path, now: now) }
        state.withLock { state in
            for var cookie in received {
                let old = state.cookies.firstIndex { $0.replaces(cookie) }
                if let old { cookie.creation = state.cookies.remove(at: old).creation }
                guard !cookie.isExpired(at: now) else { continue }
                if old == nil {
                    cookie.creation = state.nextCreation
                    state.nextCreation += 1
                }
                state.cookies.append(cookie)
            }
        }
    }

    /// Forgets every cookie.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// The cookies for `url`, in the order they are sent; drops the expired ones.
    private func sent(to url: URL) -> [Cookie] {
        guard let host = url.host?.lowercased() else { return [] }
        let path = url.path(percentEncoded: true)
        let secureChannel = ["https", "wss"].contains(url.scheme?.lowercased())
        let now = now()
        let cookies = state.withLock { state in
            state.cookies.removeAll { $0.isExpired(at: now) }
            return state.cookies
        }
        return cookies
            .filter { $0.isSent(toHost: host, path: path.isEmpty ? "/" : path, secureChannel: secureChannel) }
            .sorted { ($0.path.count, $1.creation) > ($1.path.count, $0.creation) }
    }
}
