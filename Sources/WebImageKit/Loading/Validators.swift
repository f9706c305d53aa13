/// The HTTP validators of a stored response, `ETag` and `Last-Modified`, that make a conditional
/// request possible (issue item 6).
///
/// ```swift
/// let first = try await downloader.data(for: url)
/// store(first.data, first.response.validators)   // the cache keeps them beside the bytes
/// let fresh = try await downloader.data(for: url, validators: first.response.validators)
/// if !fresh.isNotModified { store(fresh.data, fresh.response.validators) }   // else keep the stored bytes
/// ```
public struct Validators: Sendable, Hashable {
    /// The entity tag, exactly as the server sent it (quotes and any `W/` prefix included).
    public var etag: String?
    /// The `Last-Modified` date, exactly as the server sent it.
    public var lastModified: String?

    /// Creates validators.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is neither an entity tag nor a date (no conditional request is possible).
    package var isEmpty: Bool { etag == nil && lastModified == nil }

    /// The request headers of a conditional GET: `If-None-Match` and `If-Modified-Since`.
    var requestHeaders: [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let etag { headers.append(("If-None-Match", etag)) }
        if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
        return headers
    }
}

extension DownloadResponse {
    /// The response's `ETag` and `Last-Modified`, to store with the bytes for a later conditional
    /// ``ImageDownloader/data(for:options:validators:progress:)``.
    public var validators: Validators {
        Validators(etag: value(forHeader: "etag"), lastModified: value(forHeader: "last-modified"))
    }
}
