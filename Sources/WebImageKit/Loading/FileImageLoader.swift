public import Foundation

/// Loads the bytes of `file:` URLs, reading at most ``maximumFileSize`` bytes.
public struct FileImageLoader: ImageLoading {
    /// The largest file read, in bytes (default 50 MiB, as the downloader's response limit).
    public var maximumFileSize: Int

    /// Creates a loader.
    public init(maximumFileSize: Int = 50 * 1024 * 1024) {
        self.maximumFileSize = maximumFileSize
    }

    /// `file:` URLs.
    public func canLoad(_ url: URL) -> Bool { url.isFileURL }

    /// Reads the file; a missing or unreadable file fails with ``ImageDownloadError/Code/notFound``.
    /// Validators are ignored: a file is always read.
    public func loadData(
        for url: URL,
        options: DownloadOptions,
        validators: Validators?,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData {
        guard url.isFileURL else { throw ImageDownloadError(.invalidURL, "\(url.absoluteString) is not a file URL") }
        try Task.checkCancellationAsDownloadError()
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attributes, (attributes[.type] as? FileAttributeType) != .typeDirectory else {
            throw ImageDownloadError(.notFound, "no file at \(url.path)")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumFileSize else {
            throw ImageDownloadError(.tooLarge, "\(url.path) has \(size) bytes, over the limit of \(maximumFileSize)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImageDownloadError(.notFound, "\(url.path) could not be read", underlying: error)
        }
        guard !data.isEmpty else { throw ImageDownloadError(.emptyBody, "\(url.path) is empty") }
        progress?(DownloadProgress(url: url, receivedBytes: data.count, expectedBytes: data.count))
        try Task.checkCancellationAsDownloadError()
        return DownloadedData(data: data, response: DownloadResponse(url: url, statusCode: 200))
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws ``ImageDownloadError/Code/cancelled`` when the current task is cancelled.
    static func checkCancellationAsDownloadError() throws {
        if Task.isCancelled { throw ImageDownloadError.cancelled("the task was cancelled") }
    }
}
