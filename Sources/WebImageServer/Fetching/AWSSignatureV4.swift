import Crypto
import Foundation

/// AWS Signature Version 4 for one S3 request without a body (`GET`): the `Authorization` header and the headers
/// it signs, computed with swift-crypto (no AWS SDK resolves here).
///
/// The canonical request is the method, the URI-encoded path, the sorted and encoded query, the lower-cased
/// headers sorted by name, the names of those headers and the payload's SHA-256; the string to sign is the
/// algorithm, the time, the scope (`date/region/s3/aws4_request`) and the canonical request's SHA-256; the key is
/// HMAC-SHA256 chained over the date, region, service and `aws4_request` from `AWS4` + the secret key.
struct AWSSignatureV4: Sendable {
    let credentials: AWSCredentials
    let region: String
    let service = "s3"

    /// The SHA-256 of an empty payload.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The headers to send for `method` on `url` at `date`: `x-amz-date`, `x-amz-content-sha256`, the session
    /// token when there is one, `headers` given, and `Authorization`.
    func signedHeaders(method: String, url: URL, headers: [String: String] = [:], date: Date) -> [String: String] {
        let time = Self.timestamp(date), day = String(time.prefix(8))
        var all = headers.reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value.trimmingCharacters(in: .whitespaces) }
        all["host"] = Self.host(of: url)
        all["x-amz-date"] = time
        all["x-amz-content-sha256"] = Self.emptyPayloadHash
        if let token = credentials.sessionToken { all["x-amz-security-token"] = token }
        let names = all.keys.sorted()
        let canonical = [
            method, Self.canonicalPath(url), Self.canonicalQuery(url),
            names.map { "\($0):\(all[$0] ?? "")\n" }.joined(), names.joined(separator: ";"), Self.emptyPayloadHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", time, scope, Self.hex(SHA256.hash(data: Data(canonical.utf8)))].joined(separator: "\n")
        var key = SymmetricKey(data: Data(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        all["authorization"] = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(names.joined(separator: ";")), Signature=\(signature)"
        all.removeValue(forKey: "host")
        return all
    }

    /// `20130524T000000Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// The `Host` header's value: the host, and the port when it is not the scheme's default.
    static func host(of url: URL) -> String {
        let host = url.host ?? ""
        guard let port = url.port, !(url.scheme == "https" && port == 443), !(url.scheme == "http" && port == 80) else { return host }
        return "\(host):\(port)"
    }

    /// The path, each segment URI-encoded as S3 expects (unreserved characters kept, `/` between segments).
    static func canonicalPath(_ url: URL) -> String {
        let path = url.path(percentEncoded: false)
        return path.isEmpty ? "/" : path.split(separator: "/", omittingEmptySubsequences: false).map { uriEncode(String($0)) }.joined(separator: "/")
    }

    /// The query's parameters URI-encoded and sorted by name, then value.
    static func canonicalQuery(_ url: URL) -> String {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return "" }
        return items.map { (uriEncode($0.name), uriEncode($0.value ?? "")) }.sorted { $0 < $1 }.map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// RFC 3986 encoding: every byte but `A–Z a–z 0–9 - _ . ~` as `%XX`.
    static func uriEncode(_ text: String) -> String {
        text.utf8.map { byte in
            let unreserved = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x7E
            return unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }

    static func hex<D: Sequence<UInt8>>(_ bytes: D) -> String {
        Hex.encode(bytes)
    }
}

/// An access key, its secret and, for temporary credentials, a session token.
struct AWSCredentials: Sendable, Equatable {
    let accessKeyID: String
    let secretAccessKey: String
    var sessionToken: String?

    /// From `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, else from the shared credentials
    /// file (`AWS_SHARED_CREDENTIALS_FILE`, default `~/.aws/credentials`) for the profile `AWS_PROFILE` (default
    /// `default`); nil when neither has them.
    static func load(environment: [String: String]) -> AWSCredentials? {
        if let key = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"], !key.isEmpty, !secret.isEmpty {
            return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
        }
        let path = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? (environment["HOME"].map { $0 + "/.aws/credentials" } ?? "")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return parse(text, profile: environment["AWS_PROFILE"] ?? "default")
    }

    /// The credentials of `profile` in an INI-style credentials file.
    static func parse(_ text: String, profile: String) -> AWSCredentials? {
        var section = "", values: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || line.hasPrefix(";") || line.isEmpty { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                continue
            }
            guard section == profile, let equals = line.firstIndex(of: "=") else { continue }
            values[line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        guard let key = values["aws_access_key_id"], let secret = values["aws_secret_access_key"] else { return nil }
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: values["aws_session_token"])
    }
}
