public import Foundation
public import WebImageCore

/// A download whose progress is an `AsyncStream`: iterate ``progress`` while it runs, then await
/// ``result`` (issue item 7). Made by ``ImageDownloader/downloadTask(for:options:decoding:)``.
///
/// ```swift
/// let task = downloader.downloadTask(for: url)
/// for await progress in task.progress {
///     print(progress.receivedBytes, progress.expectedBytes ?? -1)
/// }
/// let image = try await task.result.image
/// ```
public struct DownloadTask: Sendable {
    /// The URL being downloaded.
    public let url: URL
    /// Progress as bytes arrive; finishes when the download ends, however it ends.
    public let progress: AsyncStream<DownloadProgress>
    private let task: Task<DownloadResult, any Error>

    init(url: URL, progress: AsyncStream<DownloadProgress>, task: Task<DownloadResult, any Error>) {
        self.url = url
        self.progress = progress
        self.task = task
    }

    /// The decoded image, the bytes and the response.
    /// - Throws: ``ImageDownloadError``; ``ImageDownloadError/Code/cancelled`` after ``cancel()``.
    public var result: DownloadResult {
        get async throws { try await task.value }
    }

    /// Leaves the download, as ``DownloadToken/cancel()`` does: other callers of the URL keep theirs.
    public func cancel() {
        task.cancel()
    }
}

extension ImageDownloader {
    /// Starts (or joins) the download of `url` and returns a ``DownloadTask`` that reports progress as
    /// an `AsyncStream` (the stream form of the `progress` callback of ``image(for:options:decoding:progress:partial:)``).
    public func downloadTask(
        for url: URL, options: DownloadOptions = [], decoding: ImageDecodingOptions = .init()
    ) -> DownloadTask {
        let (stream, continuation) = AsyncStream.makeStream(of: DownloadProgress.self, bufferingPolicy: .bufferingNewest(64))
        let task = Task {
            defer { continuation.finish() }
            return try await image(for: url, options: options, decoding: decoding) { continuation.yield($0) }
        }
        return DownloadTask(url: url, progress: stream, task: task)
    }
}
