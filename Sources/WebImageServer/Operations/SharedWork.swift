import WebImageKit

/// Identical requests in flight share one piece of work: the first caller for a key starts it, later ones
/// wait for the same result. The work runs in a task of its own, so one caller leaving does not stop it for
/// the others; it ends (with ``TimedOut``) when it outlives `timeout`.
final class SharedWork<Value: Sendable>: Sendable {
    /// The work took longer than the timeout.
    struct TimedOut: Error {}

    private let running = LockedValue<[String: Task<Value, any Error>]>([:])
    let timeout: Duration

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// The result of the work for `key`: started now by `work`, or the one already running.
    func value(for key: String, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = running.withLock { running in
            if let task = running[key] { return task }
            let timeout = self.timeout
            let task = Task {
                defer { _ = self.running.withLock { $0.removeValue(forKey: key) } }
                return try await Self.withTimeout(timeout, work)
            }
            running[key] = task
            return task
        }
        return try await task.value
    }

    /// The number of keys being worked on.
    var count: Int { running.withLock { $0.count } }

    private static func withTimeout(_ timeout: Duration, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw TimedOut() }
            return value
        }
    }
}
