public import Foundation

/// One caller's handle on a download (SPEC TK-01…TK-05): cancelling it removes only that caller.
///
/// The network request stops when the last caller of a URL cancels. A cancelled caller's completion
/// is never called. Cancelling twice, or after completion, does nothing.
public final class DownloadToken: Sendable {
    /// The URL being downloaded (SPEC TK-01).
    public let url: URL
    private weak let downloader: ImageDownloader?
    private let operation: UInt64
    private let subscriber: UInt64

    init(url: URL, downloader: ImageDownloader?, operation: UInt64, subscriber: UInt64) {
        self.url = url
        self.downloader = downloader
        self.operation = operation
        self.subscriber = subscriber
    }

    /// Removes this caller from its download; its completion will not be called (SPEC TK-04).
    public func cancel() {
        downloader?.cancel(operation: operation, subscriber: subscriber)
    }
}
