public import Foundation

/// Loads a list of URLs ahead of time so that later loads are cache hits (SDWebImage's
/// `SDWebImagePrefetcher`).
///
/// At most ``maxConcurrentPrefetches`` loads run at once (3 by default), at low priority; when one
/// ends the next starts. A URL that fails is skipped and the prefetch goes on. By default the images
/// go to the disk cache only, so a large prefetch does not push what is on screen out of memory;
/// `storesInMemory: true` keeps them in memory too.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(manager: manager)
/// for await update in prefetcher.updates(for: urls) {
///     if case .completed(let finished, let skipped) = update { print(finished, skipped) }
/// }
/// ```
public final class ImagePrefetcher: Sendable {
    /// A prefetcher over ``ImageManager/shared``.
    public static let shared = ImagePrefetcher()

    /// The manager that loads.
    public let manager: ImageManager
    /// How many loads run at once (default 3).
    public let maxConcurrentPrefetches: Int
    /// The options of every load (default ``ImageLoadOptions/lowPriority``).
    public let options: ImageLoadOptions
    /// The context of every load.
    let context: ImageLoadContext?
    /// Whether prefetched images are kept in memory as well as on disk.
    let storesInMemory: Bool
    private let state = LockedValue(PrefetcherState())

    /// Creates a prefetcher.
    public init(
        manager: ImageManager = .shared, maxConcurrentPrefetches: Int = 3, options: ImageLoadOptions = [.lowPriority],
        context: ImageLoadContext? = nil, storesInMemory: Bool = false
    ) {
        self.manager = manager
        self.maxConcurrentPrefetches = max(1, maxConcurrentPrefetches)
        self.options = options
        self.context = context
        self.storesInMemory = storesInMemory
    }

    /// Receives each URL's end and the batch's end; held weakly.
    public var delegate: (any ImagePrefetcherDelegate)? {
        get { state.withLock { $0.delegate.value } }
        set { state.withLock { $0.delegate = WeakPrefetcherDelegate(value: newValue) } }
    }

    /// Prefetches `urls`, first cancelling the prefetch already running.
    ///
    /// - Parameters:
    ///   - urls: The URLs, started in order.
    ///   - progress: `(finished, total)` after each URL, successes and failures alike.
    ///   - completed: `(finished, skipped)` once at the end, at once for an empty list.
    /// - Returns: The batch; cancelling it stops its remaining loads, and `completed` is then not called.
    @discardableResult
    public func prefetchURLs(
        _ urls: [URL],
        progress: (@Sendable (_ finished: Int, _ total: Int) -> Void)? = nil,
        completed: (@Sendable (_ finished: Int, _ skipped: Int) -> Void)? = nil
    ) -> PrefetchBatch {
        startBatch(urls) { event in
            switch event {
            case .update(.progress(_, let finished, let total)): progress?(finished, total)
            case .update(.completed(let finished, let skipped)): completed?(finished, skipped)
            case .cancelled: break
            }
        }
    }

    /// Prefetches `urls` and reports as an `AsyncStream` that ends after ``ImagePrefetchUpdate/completed(finished:skipped:)``,
    /// or without it when the batch is cancelled; ending the iteration early cancels the batch. Like
    /// ``prefetchURLs(_:progress:completed:)``, it cancels the prefetch already running.
    public func updates(for urls: [URL]) -> AsyncStream<ImagePrefetchUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: ImagePrefetchUpdate.self)
        let batch = startBatch(urls) { event in
            switch event {
            case .update(let update):
                continuation.yield(update)
                if case .completed = update { continuation.finish() }
            case .cancelled:
                continuation.finish()
            }
        }
        continuation.onTermination = { _ in batch.cancel() }
        return stream
    }

    /// Replaces the running batch with a new one for `urls` and starts it.
    private func startBatch(_ urls: [URL], report: @escaping @Sendable (PrefetchBatch.Event) -> Void) -> PrefetchBatch {
        let batch = PrefetchBatch(urls: urls, prefetcher: self, report: report)
        let previous = state.withLock { state in
            defer { state.current = batch }
            return state.current
        }
        previous?.cancel()
        batch.start()
        return batch
    }

    /// Prefetches `urls` and returns `(finished, skipped)` when all are done; cancelling the task cancels the batch.
    public func prefetch(_ urls: [URL]) async -> (finished: Int, skipped: Int) {
        var summary = (finished: 0, skipped: 0)
        for await update in updates(for: urls) {
            if case .completed(let finished, let skipped) = update { summary = (finished, skipped) }
        }
        return summary
    }

    /// Cancels the running prefetch and resets its counts. Unlike the original, loads
    /// that did not come from this prefetcher keep running.
    public func cancelPrefetching() {
        let current = state.withLock { state in
            defer { state.current = nil }
            return state.current
        }
        current?.cancel()
    }

    /// The context every prefetch load uses: disk only unless `storesInMemory`.
    var loadContext: ImageLoadContext {
        var context = context ?? ImageLoadContext()
        if !storesInMemory, context.storeCacheType == nil { context.storeCacheType = .disk }
        return context
    }

    /// Reports a finished URL to the delegate.
    func reportProgress(_ url: URL, finished: Int, total: Int) {
        delegate?.imagePrefetcher(self, didPrefetch: url, finishedCount: finished, totalCount: total)
    }

    /// Reports the end of a batch to the delegate and forgets the batch.
    func reportCompletion(of batch: PrefetchBatch, finished: Int, skipped: Int) {
        state.withLock { state in
            if state.current === batch { state.current = nil }
        }
        delegate?.imagePrefetcher(self, didFinishWithTotalCount: finished - skipped, skippedCount: skipped)
    }
}

struct WeakPrefetcherDelegate: Sendable {
    weak var value: (any ImagePrefetcherDelegate)?
}

struct PrefetcherState: Sendable {
    var delegate = WeakPrefetcherDelegate(value: nil)
    var current: PrefetchBatch?
}
