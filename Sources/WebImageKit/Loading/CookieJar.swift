public import Foundation

/// An in-memory cookie store, one per ``ImageDownloader``, used by requests with
/// ``DownloadOptions/handleCookies`` (SPEC DL-06, DL-53).
///
/// Deliberately small: cookies are kept per host (the `Domain` and `Path` attributes are ignored, so
/// a cookie goes back only to the host that set it, on every path); `Max-Age=0` or a negative
/// `Max-Age` deletes a cookie; other attributes, expiry dates included, are ignored. Nothing is
/// written to disk.
public final class CookieJar: Sendable {
    private let storage = LockedValue<[String: [String: String]]>([:])

    /// Creates an empty jar.
    public init() {}

    /// The cookies stored for `url`'s host, name → value.
    public func cookies(for url: URL) -> [String: String] {
        guard let host = url.host?.lowercased() else { return [:] }
        return storage.withLock { $0[host] ?? [:] }
    }

    /// The `Cookie` request header for `url`, or `nil` when no cookie is stored for its host.
    func header(for url: URL) -> String? {
        let cookies = cookies(for: url)
        guard !cookies.isEmpty else { return nil }
        return cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    /// Stores the cookies of `Set-Cookie` header values received from `url`.
    public func store(setCookieHeaders values: [String], from url: URL) {
        guard let host = url.host?.lowercased(), !values.isEmpty else { return }
        storage.withLock { storage in
            for value in values {
                let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let pair = parts.first, let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { continue }
                let name = String(pair[..<equals])
                let cookieValue = String(pair[pair.index(after: equals)...])
                let expired = parts.dropFirst().contains { attribute in
                    let lowered = attribute.lowercased()
                    guard lowered.hasPrefix("max-age=") else { return false }
                    return (Int(lowered.dropFirst("max-age=".count)) ?? 1) <= 0
                }
                storage[host, default: [:]][name] = expired ? nil : cookieValue
            }
        }
    }

    /// Forgets every cookie.
    public func removeAll() {
        storage.withLock { $0 = [:] }
    }
}
