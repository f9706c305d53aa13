/// Coalesces identical work: the first caller for a key starts the work in a task of its own, later callers
/// join it, and every caller still there when it ends receives its result.
///
/// A caller that leaves is gone at once (it receives nothing, and the others keep waiting); the work is
/// cancelled when its last caller leaves, and its key is free again at that moment, as it is when the work
/// ends: a later call starts new work. ``value(for:_:)`` is the async form; ``join(_:work:receive:)`` the
/// callback form it is built on.
///
/// ```swift
/// let thumbnails = SharedTasks<String, Data>()
/// let data = try await thumbnails.value(for: key) { try await render(key) }
/// ```
package final class SharedTasks<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What a caller receives: the work's value, or the error it threw.
    package typealias Outcome = Result<Value, any Error>

    /// One caller's place in a run of the work; ``leave()`` removes it.
    package struct Caller: Sendable {
        fileprivate let tasks: SharedTasks
        /// The key of the work this caller waits for.
        package let key: Key
        /// Tells this caller apart from every other caller of the same ``SharedTasks``.
        package let id: UInt64

        /// Removes this caller: `true` when it was still waiting (it will receive nothing), `false` when the
        /// work had already ended for it. The work is cancelled when this was its last caller.
        @discardableResult
        package func leave() -> Bool { tasks.leave(key: key, id: id) }
    }

    /// The running work's view of its own run: who is still waiting for it.
    package struct Run: Sendable {
        fileprivate let tasks: SharedTasks
        /// The key the work runs for.
        package let key: Key
        fileprivate let generation: UInt64

        /// The identifiers of the callers still waiting; empty once the run ended or its callers all left.
        package var callerIDs: [UInt64] { tasks.callerIDs(key: key, generation: generation) }
    }

    private struct Entry {
        /// Tells this run apart from a later one of the same key.
        let generation: UInt64
        var task: Task<Void, Never>?
        var callers: [UInt64: @Sendable (Outcome) -> Void] = [:]
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var nextID: UInt64 = 0
    }

    private let state = LockedValue(State())

    /// Creates an empty coalescer.
    package init() {}

    /// Adds a caller to the work running for `key`, or starts `work` for it in a task of its own. `receive`
    /// is called exactly once with the outcome, from the work's task, unless the caller leaves first.
    package func join(
        _ key: Key,
        work: @escaping @Sendable (Run) async throws -> Value,
        receive: @escaping @Sendable (Outcome) -> Void
    ) -> Caller {
        state.withLock { state in
            state.nextID &+= 1
            let id = state.nextID
            if state.entries[key] != nil {
                state.entries[key]?.callers[id] = receive
            } else {
                let run = Run(tasks: self, key: key, generation: id)
                let task = Task {
                    let outcome: Outcome
                    do {
                        outcome = .success(try await work(run))
                    } catch {
                        outcome = .failure(error)
                    }
                    for receive in self.end(key, generation: id) { receive(outcome) }
                }
                state.entries[key] = Entry(generation: id, task: task, callers: [id: receive])
            }
            return Caller(tasks: self, key: key, id: id)
        }
    }

    /// The number of keys whose work is running (and still has callers).
    package var runningCount: Int { state.withLock { $0.entries.count } }

    /// The number of callers waiting, over every key.
    package var callerCount: Int {
        state.withLock { state in state.entries.values.reduce(0) { $0 + $1.callers.count } }
    }

    private func callerIDs(key: Key, generation: UInt64) -> [UInt64] {
        state.withLock { state in
            guard let entry = state.entries[key], entry.generation == generation else { return [] }
            return Array(entry.callers.keys)
        }
    }

    /// Removes the run of `key` that started as `generation` (not a newer one) and returns its callers.
    private func end(_ key: Key, generation: UInt64) -> [@Sendable (Outcome) -> Void] {
        state.withLock { state in
            guard let entry = state.entries[key], entry.generation == generation else { return [] }
            state.entries[key] = nil
            return Array(entry.callers.values)
        }
    }

    private func leave(key: Key, id: UInt64) -> Bool {
        let (left, task): (Bool, Task<Void, Never>?) = state.withLock { state in
            guard state.entries[key]?.callers.removeValue(forKey: id) != nil else { return (false, nil) }
            guard state.entries[key]?.callers.isEmpty == true else { return (true, nil) }
            return (true, state.entries.removeValue(forKey: key)?.task)
        }
        task?.cancel()
        return left
    }
}
