public import Foundation

/// One load through ``ImageManager``, covering its cache query and its download (SDWebImage's combined
/// operation): one ``cancel()`` stops whichever stage is running.
///
/// After `cancel()` returns, the load's completion is never called (the #699 race).
/// Cancelling after the last result was delivered does nothing, and ``isCancelled`` stays `false`.
public final class LoadOperation: Cancellable {
    /// The URL being loaded (`nil` for a load that was refused at once).
    public let url: URL?
    private let gate = DeliveryGate()

    init(url: URL?) {
        self.url = url
    }

    /// Whether ``cancel()`` took effect before the load finished.
    public var isCancelled: Bool { gate.isCancelled }

    /// Whether the load delivered its last result (or failed).
    public var isFinished: Bool { gate.isFinished }

    /// Stops the cache query or download and makes sure the completion is never called.
    public func cancel() {
        gate.cancel()
    }

    /// Remembers the shared load this operation listens to; leaves it at once if already cancelled.
    /// Attached after the hooks of ``onCancel(_:)``, it is left before they run.
    func attach(_ subscription: SharedLoads.Subscription) {
        gate.onCancel { subscription.cancel() }
    }

    /// Adds to what ``cancel()`` also runs; runs it at once if the operation was already cancelled.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        gate.onCancel(handler)
    }

    /// Claims the right to deliver a result: `false` when cancelled or already finished. A `final`
    /// claim ends the operation, so that a later ``cancel()`` does nothing.
    func claimDelivery(final: Bool) -> Bool {
        gate.claim(final: final)
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
