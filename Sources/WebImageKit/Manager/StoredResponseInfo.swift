import Foundation

/// What the manager keeps beside a downloaded image's bytes in the disk cache's extended data: the HTTP
/// validators for a later refresh, the content type and the origin's caching headers. Stored as a small JSON object.
struct StoredResponseInfo: Codable, Sendable, Equatable {
    var etag: String?
    var lastModified: String?
    var contentType: String?
    var cacheControl: String?
    var expires: String?

    init(_ response: DownloadResponse) {
        etag = response.value(forHeader: "etag")
        lastModified = response.value(forHeader: "last-modified")
        contentType = response.mimeType
        cacheControl = response.value(forHeader: "cache-control")
        expires = response.value(forHeader: "expires")
    }

    /// Reads what ``encoded()`` wrote; `nil` for anything else (extended data written by someone else).
    init?(decoding data: Data?) {
        guard let data, let info = try? JSONDecoder().decode(StoredResponseInfo.self, from: data) else { return nil }
        self = info
    }

    /// The JSON bytes; `nil` when there is nothing worth storing.
    func encoded() -> Data? {
        guard etag != nil || lastModified != nil || contentType != nil || cacheControl != nil || expires != nil else { return nil }
        return try? JSONEncoder().encode(self)
    }

    var validators: Validators { Validators(etag: etag, lastModified: lastModified) }
}
