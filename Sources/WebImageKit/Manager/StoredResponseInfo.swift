import Foundation

/// What the manager keeps beside a downloaded image's bytes in the disk cache's extended data: the HTTP
/// validators for a later refresh and the content type. Stored as a small JSON object.
struct StoredResponseInfo: Codable, Sendable, Equatable {
    var etag: String?
    var lastModified: String?
    var contentType: String?

    init(_ response: DownloadResponse) {
        etag = response.value(forHeader: "etag")
        lastModified = response.value(forHeader: "last-modified")
        contentType = response.mimeType
    }

    /// Reads what ``encoded()`` wrote; `nil` for anything else (extended data written by someone else).
    init?(decoding data: Data?) {
        guard let data, let info = try? JSONDecoder().decode(StoredResponseInfo.self, from: data) else { return nil }
        self = info
    }

    /// The JSON bytes; `nil` when there is nothing worth storing.
    func encoded() -> Data? {
        guard etag != nil || lastModified != nil || contentType != nil else { return nil }
        return try? JSONEncoder().encode(self)
    }

    var validators: Validators { Validators(etag: etag, lastModified: lastModified) }
}
