
/// A disk query in flight, returned by ``ImageCache/queryImage(forKey:options:decoding:cacheType:completion:)``.
///
/// ``cancel()`` before the query calls back guarantees it never calls back; after the callback has started
/// it has no effect. Safe to use from any thread.
public final class CacheQueryOperation: Sendable {
    private let gate = DeliveryGate()

    /// Creates a pending operation.
    init() {}

    /// Cancels the query if it has not called back yet; the disk lookup is abandoned if it has not started.
    public func cancel() {
        gate.cancel()
    }

    /// Whether ``cancel()`` was called before the query finished.
    public var isCancelled: Bool { gate.isCancelled }

    /// Whether the query called back.
    public var isFinished: Bool { gate.isFinished }

    /// Marks the operation finished and runs `body`, unless it was cancelled first.
    func finish(_ body: () -> Void) {
        if gate.claim(final: true) { body() }
    }
}
