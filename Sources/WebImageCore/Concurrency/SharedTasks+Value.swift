extension SharedTasks {
    /// Where one async caller stands: joining, waiting (with its place and its way to resume), or cancelled.
    private enum Waiter: Sendable {
        case joining
        case waiting(Caller, @Sendable (Outcome) -> Void)
        case cancelled

        /// Whether the caller's task was cancelled.
        var isCancelled: Bool {
            if case .cancelled = self { return true }
            return false
        }
    }

    /// The value of the work for `key`: started now by `work`, or the run already going on for it.
    ///
    /// Cancelling the calling task makes this caller leave at once: it throws `CancellationError` without
    /// waiting for the work, which goes on for the other callers and is cancelled when none is left. The
    /// value crosses to the caller through ``withHandOff(_:)``, so ThreadSanitizer sees the hand-over.
    /// - Throws: What `work` threw, or `CancellationError` when the calling task was cancelled first.
    package func value(for key: Key, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let waiter = LockedValue(Waiter.joining)
        let outcome: Outcome = await withTaskCancellationHandler {
            await withHandOff { deliver in
                // Cancelled before joining: no work is started for this caller.
                guard !waiter.withLock({ $0.isCancelled }) else {
                    deliver(.failure(CancellationError()))
                    return
                }
                let caller = join(key, work: { _ in try await work() }, receive: deliver)
                let cancelled = waiter.withLock { waiter in
                    if waiter.isCancelled { return true }
                    waiter = .waiting(caller, deliver)
                    return false
                }
                if cancelled, caller.leave() { deliver(.failure(CancellationError())) }
            }
        } onCancel: {
            let waiting = waiter.withLock { waiter -> (caller: Caller, deliver: @Sendable (Outcome) -> Void)? in
                defer { waiter = .cancelled }
                guard case .waiting(let caller, let deliver) = waiter else { return nil }
                return (caller, deliver)
            }
            // Only a caller that was still waiting resumes here; otherwise the work's outcome is on its way.
            if let waiting, waiting.caller.leave() { waiting.deliver(.failure(CancellationError())) }
        }
        return try outcome.get()
    }
}
