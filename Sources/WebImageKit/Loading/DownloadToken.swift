public import Foundation

/// The handle of a callback-form download: cancelling it removes only that caller.
///
/// The network request stops when the last caller of a URL cancels. After ``cancel()`` returns, the
/// completion is never called. Cancelling twice, or after completion, does nothing.
public final class DownloadToken: Sendable {
    /// The URL being downloaded.
    public let url: URL

    private let gate = DeliveryGate()

    init(url: URL) {
        self.url = url
    }

    /// Records the subscription that ``cancel()`` leaves.
    func attach(_ subscription: DownloadSubscription) {
        gate.onCancel { subscription.cancel() }
    }

    /// Whether the completion may still be called.
    var isActive: Bool { gate.isRunning }

    /// Calls `completion` unless the token was cancelled first; ends the token either way.
    func finish(_ completion: () -> Void) {
        if gate.claim(final: true) { completion() }
    }

    /// Removes this caller from its download; its completion will not be called.
    public func cancel() {
        gate.cancel()
    }
}
