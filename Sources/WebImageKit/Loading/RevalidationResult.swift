/// The outcome of a conditional download (``ImageDownloader/revalidate(_:validators:options:decoding:progress:)``).
public enum RevalidationResult: Sendable {
    /// The server answered 304: the caller's stored copy is current. Carries the 304 response, whose
    /// headers may refresh the stored ones (no image, no error).
    case notModified(DownloadResponse)
    /// The server sent a new image.
    case modified(DownloadResult)

    /// The new download, or `nil` when the stored copy is current.
    public var result: DownloadResult? {
        if case .modified(let result) = self { return result }
        return nil
    }
}
