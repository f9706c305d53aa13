
/// A disk query in flight, returned by ``ImageCache/queryImage(forKey:options:decoding:cacheType:completion:)``.
///
/// ``cancel()`` before the query calls back guarantees it never calls back; after the callback has started
/// it has no effect. Safe to use from any thread.
public final class CacheQueryOperation: Sendable {
    private enum State { case pending, cancelled, finished }
    private let state = LockedValue(State.pending)

    /// Creates a pending operation.
    init() {}

    /// Cancels the query if it has not called back yet; the disk lookup is abandoned if it has not started.
    public func cancel() {
        locked { if $0 == .pending { $0 = .cancelled } }
    }

    /// Whether ``cancel()`` was called before the query finished.
    public var isCancelled: Bool { locked { $0 == .cancelled } }

    /// Whether the query called back.
    public var isFinished: Bool { locked { $0 == .finished } }

    /// Marks the operation finished and runs `body`, unless it was cancelled first.
    func finish(_ body: () -> Void) {
        let claimed = locked { state -> Bool in
            guard state == .pending else { return false }
            state = .finished
            return true
        }
        if claimed { body() }
    }

    private func locked<R>(_ body: (inout State) -> R) -> R {
        return state.withLock { state in
            return body(&state)
        }
    }
}
