import Crypto
import Foundation
import WebImageKit

/// A processed image, ready to send.
struct ProcessedImage: Sendable {
    /// The encoded bytes.
    let data: Data
    /// Their format.
    let format: ImageFormat
    /// The entity tag: a digest of the result key and the source's validators (or, for a source without
    /// validators, of the result's bytes). The signature is not part of it.
    let etag: String
    /// The source's `Last-Modified`, passed through.
    let lastModified: String?
    /// The source's `Cache-Control` and `Expires`, for `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`.
    var sourceCaching = SourceCaching()
    /// What was wrong with a damaged source that was decoded as far as it goes (``DecodingIssue``, one line
    /// each); empty for a clean one. Sent as `X-Image-Issues`.
    var sourceIssues: [String] = []
    /// For the configured fallback image served in place of a source that failed: the response's status. A
    /// fallback is never stored in the result cache and carries no validators.
    var fallbackStatus: Int? = nil
}

extension ProcessedImage {
    /// A result just made from a source whose response was `source` (its validators and caching headers), for the
    /// job with `key`.
    init(data: Data, format: ImageFormat, source: DownloadResponse, key: String) {
        let validators = source.validators
        let fingerprint = ETag.fingerprint(validators) ?? Data(SHA256.hash(data: data))
        self.init(data: data, format: format, etag: ETag.make(key: key, fingerprint: fingerprint), lastModified: validators.lastModified)
        sourceCaching = SourceCaching(cacheControl: source.value(forHeader: "cache-control"), expires: source.value(forHeader: "expires"))
    }
}

/// A source's own caching headers, kept with its results.
struct SourceCaching: Codable, Sendable, Hashable {
    var cacheControl: String?
    var expires: String?
}

/// The server's entity tags.
enum ETag {
    /// A strong entity tag: URL-safe base64 of the first 16 bytes of SHA-256 over the key and the fingerprint.
    static func make(key: String, fingerprint: Data) -> String {
        var hasher = SHA256()
        hasher.update(data: Data(key.utf8))
        hasher.update(data: fingerprint)
        return "\"" + Base64URL.encode(Data(hasher.finalize().prefix(16))) + "\""
    }

    /// The source's validators as bytes for the entity tag; nil when it has neither.
    static func fingerprint(_ validators: Validators) -> Data? {
        guard validators.etag != nil || validators.lastModified != nil else { return nil }
        return Data("\(validators.etag ?? "")\n\(validators.lastModified ?? "")".utf8)
    }

    /// Whether an `If-None-Match` value names `etag` (`*`, or one of a list; weak tags compare weakly).
    static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        let tags = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return tags.contains { $0 == "*" || $0 == etag || $0 == "W/" + etag }
    }
}
