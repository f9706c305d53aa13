public import Foundation

/// One list of URLs being prefetched: a sliding window of at most
/// ``ImagePrefetcher/maxConcurrentPrefetches`` loads, refilled as each one ends.
public final class PrefetchBatch: Cancellable {
    enum Event: Sendable {
        case update(ImagePrefetchUpdate)
        case cancelled
    }

    private struct State {
        var nextIndex = 0
        var running: [Int: LoadOperation] = [:]
        /// Loads started and not yet ended (some may not be in `running` yet).
        var active = 0
        var finished = 0
        var skipped = 0
        var isCancelled = false
        var isPumping = false
    }

    /// The URLs, in the order they are started.
    public let urls: [URL]
    private let prefetcher: ImagePrefetcher
    private let report: @Sendable (Event) -> Void
    private let state = LockedValue(State())

    init(urls: [URL], prefetcher: ImagePrefetcher, report: @escaping @Sendable (Event) -> Void) {
        self.urls = urls
        self.prefetcher = prefetcher
        self.report = report
    }

    /// How many URLs are done, successes and failures alike.
    public var finishedCount: Int { state.withLock { $0.finished } }
    /// How many URLs failed (partial images do not count).
    public var skippedCount: Int { state.withLock { $0.skipped } }
    /// Whether the batch was cancelled before it finished.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Stops the loads still running and starts no more; the completion is not reported.
    public func cancel() {
        let running: [LoadOperation]? = state.withLock { state in
            guard !state.isCancelled, state.finished < urls.count else { return nil }
            state.isCancelled = true
            defer { state.running.removeAll() }
            return Array(state.running.values)
        }
        guard let running else { return }
        for operation in running { operation.cancel() }
        report(.cancelled)
    }

    /// Starts the first loads; an empty list completes at once with `(0, 0)`.
    func start() {
        guard !urls.isEmpty else {
            finish(finished: 0, skipped: 0)
            return
        }
        pump()
    }

    /// Starts loads while there is room. Only one thread pumps at a time: a load that
    /// ends while another thread pumps leaves the refill to it, so memory hits that complete at once
    /// never recurse.
    private func pump() {
        let canPump = state.withLock { state in
            if state.isPumping { return false }
            state.isPumping = true
            return true
        }
        guard canPump else { return }
        let limit = prefetcher.maxConcurrentPrefetches
        while true {
            let next: (index: Int, url: URL)? = state.withLock { state in
                guard !state.isCancelled, state.active < limit, state.nextIndex < urls.count else {
                    state.isPumping = false
                    return nil
                }
                state.active += 1
                defer { state.nextIndex += 1 }
                return (state.nextIndex, urls[state.nextIndex])
            }
            guard let next else { return }
            let operation = prefetcher.manager.loadImage(
                with: next.url, options: prefetcher.options, context: prefetcher.loadContext
            ) { [self] result in
                if case .success(let loaded) = result, !loaded.isFinished { return }  // partial images do not count
                loadEnded(next.index, url: next.url, succeeded: (try? result.get()) != nil)
            }
            state.withLock { state in
                if !operation.isFinished, !state.isCancelled { state.running[next.index] = operation }
            }
            if operation.isFinished == false, isCancelled { operation.cancel() }
        }
    }

    /// Counts an ended load, reports it, and refills the window or finishes.
    private func loadEnded(_ index: Int, url: URL, succeeded: Bool) {
        let counts: (finished: Int, skipped: Int, done: Bool)? = state.withLock { state in
            guard !state.isCancelled else { return nil }
            state.running[index] = nil
            state.active -= 1
            state.finished += 1
            if !succeeded { state.skipped += 1 }
            return (state.finished, state.skipped, state.finished == urls.count)
        }
        guard let counts else { return }
        report(.update(.progress(url: url, finished: counts.finished, total: urls.count)))
        prefetcher.reportProgress(url, finished: counts.finished, total: urls.count)
        if counts.done {
            finish(finished: counts.finished, skipped: counts.skipped)
        } else {
            pump()
        }
    }

    private func finish(finished: Int, skipped: Int) {
        prefetcher.reportCompletion(of: self, finished: finished, skipped: skipped)
        report(.update(.completed(finished: finished, skipped: skipped)))
    }
}
