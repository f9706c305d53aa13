public import Foundation

/// One load through ``ImageManager``, covering its cache query and its download (SDWebImage's combined
/// operation, SPEC CO-01…CO-07): one ``cancel()`` stops whichever stage is running.
///
/// After `cancel()` returns, the load's completion is never called (MG-46, MG-51, the #699 race).
/// Cancelling after the last result was delivered does nothing, and ``isCancelled`` stays `false`.
public final class LoadOperation: Cancellable {
    private enum Phase { case running, finished, cancelled }

    private struct State {
        var phase = Phase.running
        var subscription: SharedLoads.Subscription?
        var onCancel: (@Sendable () -> Void)?
    }

    /// The URL being loaded (`nil` for a load that was refused at once).
    public let url: URL?
    private let state = LockedValue(State())

    init(url: URL?) {
        self.url = url
    }

    /// Whether ``cancel()`` took effect before the load finished.
    public var isCancelled: Bool { state.withLock { $0.phase == .cancelled } }

    /// Whether the load delivered its last result (or failed).
    public var isFinished: Bool { state.withLock { $0.phase == .finished } }

    /// Stops the cache query or download and makes sure the completion is never called (CO-04, CO-05).
    public func cancel() {
        let (subscription, onCancel): (SharedLoads.Subscription?, (@Sendable () -> Void)?) = state.withLock { state in
            guard state.phase == .running else { return (nil, nil) }
            state.phase = .cancelled
            defer {
                state.subscription = nil
                state.onCancel = nil
            }
            return (state.subscription, state.onCancel)
        }
        subscription?.cancel()
        onCancel?()
    }

    /// Remembers the shared load this operation listens to; leaves it at once if already cancelled (CO-03).
    func attach(_ subscription: SharedLoads.Subscription) {
        let cancelled = state.withLock { state in
            if state.phase == .running { state.subscription = subscription }
            return state.phase == .cancelled
        }
        if cancelled { subscription.cancel() }
    }

    /// Sets what ``cancel()`` also runs; runs it at once if the operation was already cancelled.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            if state.phase == .running { state.onCancel = handler }
            return state.phase == .cancelled
        }
        if cancelled { handler() }
    }

    /// Claims the right to deliver a result: `false` when cancelled or already finished. A `final`
    /// claim ends the operation, so that a later ``cancel()`` does nothing.
    func claimDelivery(final: Bool) -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            if final {
                state.phase = .finished
                state.subscription = nil
                state.onCancel = nil
            }
            return true
        }
    }
}

extension ImageManager {
    /// An operation for a load that ended before any work started.
    func finishedOperation(url: URL?) -> LoadOperation {
        let operation = LoadOperation(url: url)
        _ = operation.claimDelivery(final: true)
        return operation
    }
}
