import Foundation

/// Runs one pipeline per distinct load and lets simultaneous callers listen to it (issue item 4): callers
/// of the same image with the same options share one cache query, one download, one decode and one
/// transform. A caller leaving removes only itself; the pipeline is cancelled when the last one leaves.
///
/// It is the one record of the manager's running loads and their callers: ``ImageManager/isRunning`` and
/// ``ImageManager/cancelAll()`` read it.
final class SharedLoads: Sendable {
    /// What a listener receives: intermediate results (partial images, a cached image before a refresh),
    /// progress, and the end (`nil`: nothing more to deliver).
    struct Listener: Sendable {
        let progress: (@Sendable (DownloadProgress) -> Void)?
        let intermediate: @Sendable (ImageLoadResult) -> Void
        let finish: @Sendable (Result<ImageLoadResult?, ImageLoadError>) -> Void
        /// Cancels the caller (for ``SharedLoads/cancelAll()``): it leaves and is never called again.
        let cancel: @Sendable () -> Void
    }

    /// A listener's handle; ``cancel()`` removes it from its load.
    struct Subscription: Sendable {
        fileprivate let loads: SharedLoads
        fileprivate let key: LoadKey
        fileprivate let id: UInt64

        func cancel() { loads.leave(key: key, id: id) }
    }

    /// The pipeline's way to reach whoever is listening at the moment.
    struct Sink: Sendable {
        fileprivate let loads: SharedLoads
        fileprivate let key: LoadKey

        func progress(_ progress: DownloadProgress) {
            for listener in loads.listeners(of: key) { listener.progress?(progress) }
        }

        func intermediate(_ result: ImageLoadResult) {
            for listener in loads.listeners(of: key) { listener.intermediate(result) }
        }

        /// Whether anyone listens for progress (so that the pipeline can skip reporting it).
        var wantsProgress: Bool { loads.listeners(of: key).contains { $0.progress != nil } }
    }

    private struct Entry {
        /// Tells this run apart from a later one of the same key.
        let generation: UInt64
        var task: Task<Void, Never>?
        var listeners: [UInt64: Listener] = [:]
    }

    private struct State {
        var entries: [LoadKey: Entry] = [:]
        var nextID: UInt64 = 0
    }

    private let state = LockedValue(State())

    /// Adds `listener` to the load of `key` (`nil`: a load that runs alone), starting `pipeline` when none
    /// runs for it.
    func join(
        _ key: LoadKey?, url: URL, listener: Listener,
        pipeline: @escaping @Sendable (Sink) async -> Result<ImageLoadResult?, ImageLoadError>
    ) -> Subscription {
        state.withLock { state in
            state.nextID &+= 1
            let id = state.nextID
            let key = key ?? .solo(id, url: url)
            if state.entries[key] != nil {
                state.entries[key]?.listeners[id] = listener
            } else {
                let sink = Sink(loads: self, key: key)
                let task = Task {
                    let result = await pipeline(sink)
                    for listener in self.end(key, generation: id) { listener.finish(result) }
                }
                state.entries[key] = Entry(generation: id, task: task, listeners: [id: listener])
            }
            return Subscription(loads: self, key: key, id: id)
        }
    }

    /// The number of callers of every running load.
    var listenerCount: Int {
        state.withLock { state in state.entries.values.reduce(0) { $0 + $1.listeners.count } }
    }

    /// Cancels every caller of every load; each leaves, so every pipeline is cancelled too (MG-34).
    func cancelAll() {
        let listeners = state.withLock { state in state.entries.values.flatMap(\.listeners.values) }
        for listener in listeners { listener.cancel() }
    }

    private func listeners(of key: LoadKey) -> [Listener] {
        state.withLock { state in state.entries[key].map { Array($0.listeners.values) } ?? [] }
    }

    /// Removes the run of `key` that started as `generation` (not a newer one) and returns its listeners.
    private func end(_ key: LoadKey, generation: UInt64) -> [Listener] {
        state.withLock { state in
            guard let entry = state.entries[key], entry.generation == generation else { return [] }
            state.entries[key] = nil
            return Array(entry.listeners.values)
        }
    }

    private func leave(key: LoadKey, id: UInt64) {
        let task: Task<Void, Never>? = state.withLock { state in
            guard state.entries[key]?.listeners.removeValue(forKey: id) != nil,
                  state.entries[key]?.listeners.isEmpty == true
            else { return nil }
            return state.entries.removeValue(forKey: key)?.task
        }
        task?.cancel()
    }
}
