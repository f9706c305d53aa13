/// The rule "deliver once, then never after cancel", shared by a caller's handle and the work it waits for:
/// the work claims each delivery, the caller cancels, and exactly one of "the last delivery" and "the cancel"
/// wins.
///
/// It is the state behind the library's cancellable handles (a load's operation, a download's token and
/// subscription, a cache query). Behind a `LockedValue`, so that ThreadSanitizer sees its ordering.
package final class DeliveryGate: Sendable {
    /// Where the gate stands: still delivering, delivered its last result, or cancelled first.
    package enum Phase: Sendable {
        /// Deliveries may still be claimed and a cancel still takes effect.
        case running
        /// The last delivery was claimed: nothing more is delivered and a cancel does nothing.
        case finished
        /// Cancelled before the last delivery: nothing is delivered any more.
        case cancelled
    }

    private struct State {
        var phase = Phase.running
        var onCancel: [@Sendable () -> Void] = []
    }

    private let state = LockedValue(State())

    /// Creates a running gate.
    package init() {}

    /// The current phase.
    package var phase: Phase { state.withLock { $0.phase } }

    /// Whether a delivery may still be claimed.
    package var isRunning: Bool { phase == .running }

    /// Whether ``cancel()`` took effect before the last delivery.
    package var isCancelled: Bool { phase == .cancelled }

    /// Whether the last delivery was claimed.
    package var isFinished: Bool { phase == .finished }

    /// Claims the right to deliver: `false` once cancelled or finished. A `final` claim finishes the gate, so
    /// that a later ``cancel()`` does nothing and the cancel handlers are dropped unrun.
    package func claim(final: Bool) -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            if final {
                state.phase = .finished
                state.onCancel = []
            }
            return true
        }
    }

    /// Cancels the gate if it is running and runs its cancel handlers, the last added first (as `defer`
    /// blocks run: what was attached later is detached first). Returns whether this call cancelled it.
    @discardableResult
    package func cancel() -> Bool {
        let handlers: [@Sendable () -> Void]? = state.withLock { state in
            guard state.phase == .running else { return nil }
            state.phase = .cancelled
            defer { state.onCancel = [] }
            return state.onCancel
        }
        guard let handlers else { return false }
        for handler in handlers.reversed() { handler() }
        return true
    }

    /// Adds `handler` to what ``cancel()`` runs, exactly once; runs it at once if the gate was already
    /// cancelled, and never if it finished.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            if state.phase == .running { state.onCancel.append(handler) }
            return state.phase == .cancelled
        }
        if cancelled { handler() }
    }
}
