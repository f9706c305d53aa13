/// The request took longer than the server's request timeout.
struct DeadlinePassed: Error {}

/// Runs `work`, or throws ``DeadlinePassed`` when it outlives `timeout` (the work is then cancelled).
func withDeadline<T: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlinePassed() }
        return value
    }
}
