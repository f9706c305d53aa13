import Foundation

/// One caller of a download, as the downloader's state tracks it: cancelling it removes only that caller
/// (the network request stops when the last caller of a URL leaves), and it is where the caller's
/// completion is called, exactly once: with the result, or never after ``cancel()`` (then `onCancel` runs
/// instead, so that an awaiting caller resumes). Cancelling twice, or after completion, does nothing.
final class DownloadSubscription: Sendable {
    let url: URL
    private let completion: @Sendable (Result<DownloadedData, ImageDownloadError>) -> Void
    private let gate = DeliveryGate()

    init(
        url: URL,
        completion: @escaping @Sendable (Result<DownloadedData, ImageDownloadError>) -> Void,
        onCancel: (@Sendable () -> Void)? = nil
    ) {
        self.url = url
        self.completion = completion
        if let onCancel { gate.onCancel(onCancel) }
    }

    /// Records the download this token belongs to; cancels it at once if the token was cancelled first.
    /// Attached after `onCancel`, it is left before `onCancel` runs.
    func attach(to downloader: ImageDownloader, operation: UInt64, subscriber: UInt64) {
        gate.onCancel { [weak downloader] in downloader?.cancel(operation: operation, subscriber: subscriber) }
    }

    /// Calls the completion with `result` unless the token was cancelled or completed before.
    func complete(_ result: Result<DownloadedData, ImageDownloadError>) {
        if gate.claim(final: true) { completion(result) }
    }

    /// Whether the completion is still to be called.
    var isPending: Bool { gate.isRunning }

    /// Removes this caller from its download; its completion will not be called.
    func cancel() {
        gate.cancel()
    }
}
