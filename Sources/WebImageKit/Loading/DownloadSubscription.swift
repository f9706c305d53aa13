import Foundation

/// One caller of a download, as the downloader's state tracks it: cancelling it removes only that caller
/// (the network request stops when the last caller of a URL leaves), and it is where the caller's
/// completion is called, exactly once: with the result, or never after ``cancel()`` (then `onCancel` runs
/// instead, so that an awaiting caller resumes). Cancelling twice, or after completion, does nothing.
final class DownloadSubscription: Sendable {
    let url: URL

    private struct State {
        var completion: (@Sendable (Result<DownloadedData, ImageDownloadError>) -> Void)?
        var onCancel: (@Sendable () -> Void)?
        weak var downloader: ImageDownloader?
        var operation: UInt64 = 0
        var subscriber: UInt64 = 0
    }

    private let state: LockedValue<State>

    init(
        url: URL,
        completion: @escaping @Sendable (Result<DownloadedData, ImageDownloadError>) -> Void,
        onCancel: (@Sendable () -> Void)? = nil
    ) {
        self.url = url
        state = LockedValue(State(completion: completion, onCancel: onCancel))
    }

    /// Records the download this token belongs to; cancels it at once if the token was cancelled first.
    func attach(to downloader: ImageDownloader, operation: UInt64, subscriber: UInt64) {
        let cancelled = state.withLock { state in
            state.downloader = downloader
            state.operation = operation
            state.subscriber = subscriber
            return state.completion == nil
        }
        if cancelled { downloader.cancel(operation: operation, subscriber: subscriber) }
    }

    /// Calls the completion with `result` unless the token was cancelled or completed before.
    func complete(_ result: Result<DownloadedData, ImageDownloadError>) {
        let completion = state.withLock { state in
            defer { state.completion = nil; state.onCancel = nil }
            return state.completion
        }
        completion?(result)
    }

    /// Whether the completion is still to be called.
    var isPending: Bool { state.withLock { $0.completion != nil } }

    /// Removes this caller from its download; its completion will not be called (SPEC TK-04).
    func cancel() {
        let (pending, onCancel, downloader, operation, subscriber) = state.withLock { state in
            defer { state.completion = nil; state.onCancel = nil }
            return (state.completion != nil, state.onCancel, state.downloader, state.operation, state.subscriber)
        }
        guard pending else { return }
        downloader?.cancel(operation: operation, subscriber: subscriber)
        onCancel?()
    }
}
