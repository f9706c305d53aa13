public import Foundation

/// The handle of a callback-form download (SPEC TK-01…TK-05): cancelling it removes only that caller.
///
/// The network request stops when the last caller of a URL cancels. After ``cancel()`` returns, the
/// completion is never called. Cancelling twice, or after completion, does nothing.
public final class DownloadToken: Sendable {
    /// The URL being downloaded (SPEC TK-01).
    public let url: URL

    private struct State {
        var isDone = false
        var subscription: DownloadSubscription?
    }

    private let state = LockedValue(State())

    init(url: URL) {
        self.url = url
    }

    /// Records the subscription that ``cancel()`` leaves.
    func attach(_ subscription: DownloadSubscription) {
        state.withLock { $0.subscription = subscription }
    }

    /// Whether the completion may still be called.
    var isActive: Bool { state.withLock { !$0.isDone } }

    /// Calls `completion` unless the token was cancelled first; ends the token either way.
    func finish(_ completion: () -> Void) {
        let first = state.withLock { state in
            defer { state.isDone = true; state.subscription = nil }
            return !state.isDone
        }
        if first { completion() }
    }

    /// Removes this caller from its download; its completion will not be called (SPEC TK-04).
    public func cancel() {
        let subscription = state.withLock { state -> DownloadSubscription? in
            guard !state.isDone else { return nil }
            state.isDone = true
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
    }
}
