import Foundation

/// Runs one pipeline per distinct load and lets simultaneous callers listen to it (issue item 4): callers
/// of the same image with the same options share one cache query, one download, one decode and one
/// transform. A caller leaving removes only itself; the pipeline is cancelled when the last one leaves.
///
/// It is the one record of the manager's running loads and their callers: ``ImageManager/isRunning`` and
/// ``ImageManager/cancelAll()`` read it. The coalescing itself is ``SharedTasks``'; this type adds the
/// listeners that intermediate results and progress reach.
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
        fileprivate let caller: Runs.Caller

        func cancel() { loads.leave(caller) }
    }

    /// The pipeline's way to reach whoever is listening at the moment.
    struct Sink: Sendable {
        fileprivate let loads: SharedLoads
        fileprivate let run: Runs.Run

        func progress(_ progress: DownloadProgress) {
            for listener in loads.listeners(of: run) { listener.progress?(progress) }
        }

        func intermediate(_ result: ImageLoadResult) {
            for listener in loads.listeners(of: run) { listener.intermediate(result) }
        }

        /// Whether anyone listens for progress (so that the pipeline can skip reporting it).
        var wantsProgress: Bool { loads.listeners(of: run).contains { $0.progress != nil } }
    }

    /// The running pipelines, one per key, with their callers.
    fileprivate typealias Runs = SharedTasks<LoadKey, Result<ImageLoadResult?, ImageLoadError>>

    private struct State {
        /// Every caller's listener, by its ``SharedTasks/Caller/id``.
        var listeners: [UInt64: Listener] = [:]
        /// Numbers the loads that run alone.
        var nextSolo: UInt64 = 0
    }

    private let runs = Runs()
    private let state = LockedValue(State())

    /// Adds `listener` to the load of `key` (`nil`: a load that runs alone), starting `pipeline` when none
    /// runs for it.
    func join(
        _ key: LoadKey?, url: URL, listener: Listener,
        pipeline: @escaping @Sendable (Sink) async -> Result<ImageLoadResult?, ImageLoadError>
    ) -> Subscription {
        // Set under `state`'s lock, which `receive` takes before reading it.
        let callerID = LockedValue<UInt64>(0)
        return state.withLock { state in
            let key = key ?? {
                state.nextSolo &+= 1
                return .solo(state.nextSolo, url: url)
            }()
            let caller = runs.join(key) { run in
                await pipeline(Sink(loads: self, run: run))
            } receive: { outcome in
                self.state.withLock { state in _ = state.listeners.removeValue(forKey: callerID.withLock { $0 }) }
                // The pipeline never throws: a failure here can only be its task's cancellation.
                listener.finish((try? outcome.get()) ?? .failure(.cancelled(url)))
            }
            callerID.withLock { $0 = caller.id }
            state.listeners[caller.id] = listener
            return Subscription(loads: self, caller: caller)
        }
    }

    /// The number of callers of every running load.
    var listenerCount: Int { runs.callerCount }

    /// Cancels every caller of every load; each leaves, so every pipeline is cancelled too.
    func cancelAll() {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.cancel() }
    }

    private func listeners(of run: Runs.Run) -> [Listener] {
        let ids = run.callerIDs
        return state.withLock { state in ids.compactMap { state.listeners[$0] } }
    }

    private func leave(_ caller: Runs.Caller) {
        caller.leave()
        state.withLock { state in _ = state.listeners.removeValue(forKey: caller.id) }
    }
}
