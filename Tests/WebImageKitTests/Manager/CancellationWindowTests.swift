import Foundation
import Testing
@testable import WebImageKit
import WebImageTestSupport

/// Cancelling in the two windows the random-cancel stress test only hits by chance: while the cache query
/// runs (SPEC MG-46) and before the operation holds its shared load (SPEC CO-03).
@Suite struct CancellationWindowTests {
    /// A cache whose disk query waits, whatever happens to its task, until the test releases it; then a miss.
    final class HeldCache: ImageCaching {
        private struct State {
            var isReleased = false
            var waiting: [CheckedContinuation<Void, Never>] = []
        }

        private let state = LockedValue(State())
        /// Every key queried, when its query starts.
        let queries: AsyncStream<String>
        private let querySink: AsyncStream<String>.Continuation

        init() { (queries, querySink) = AsyncStream.makeStream() }

        func release() {
            let waiting = state.withLock { state in
                state.isReleased = true
                defer { state.waiting.removeAll() }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }

        func storedData(forKey key: String, cacheType: ImageCacheType) async -> CacheQueryResult? {
            querySink.yield(key)
            await withCheckedContinuation { continuation in
                let released = state.withLock { state in
                    if !state.isReleased { state.waiting.append(continuation) }
                    return state.isReleased
                }
                if released { continuation.resume() }
            }
            return nil
        }

        func store(_ image: Image?, data: Data?, forKey key: String, extendedData: Data?, cacheType: ImageCacheType) async throws {}
        func remove(forKey key: String, cacheType: ImageCacheType) async throws {}
        func contains(_ key: String, cacheType: ImageCacheType) async -> ImageCacheType { .notCached }
        func clear(cacheType: ImageCacheType) async throws {}
    }

    @Test func mg46ALoadCancelledWhileItsCacheQueryRunsNeverCompletesAndNeverLoads() async throws {
        let cache = HeldCache()
        let loader = MockLoader()
        let url = MockLoader.url("queried.png")
        loader.serve(url)
        let log = LogRecorder()
        let manager = ImageManager(cache: cache, loader: loader, logger: log.logger)
        let deliveries = Deliveries()
        let operation = manager.loadImage(with: url, completed: deliveries.completion)
        var queries = cache.queries.makeAsyncIterator()
        #expect(await queries.next() == url.absoluteString)  // the disk query is running
        operation.cancel()
        cache.release()
        // The pipeline logs its end after it has returned: after that nothing else can happen.
        var lines = log.messages.makeAsyncIterator()
        let end = await lines.next()
        #expect(end?.hasPrefix("image load failed") == true)
        #expect(deliveries.count == 0)
        #expect(loader.totalLoads == 0)
        #expect(!manager.isRunning)
    }

    @Test func co03AnOperationCancelledBeforeItsSharedLoadIsAttachedLeavesItAtOnce() async throws {
        let url = MockLoader.url("attached.png")
        let loads = SharedLoads()
        let gate = Gate()
        let (outcomes, outcomeSink) = AsyncStream.makeStream(of: String.self)
        let operation = LoadOperation(url: url)
        operation.cancel()
        let listener = SharedLoads.Listener(
            progress: nil, intermediate: { _ in Issue.record("a cancelled operation got a result") },
            finish: { _ in Issue.record("a cancelled operation finished") }, cancel: { operation.cancel() })
        let subscription = loads.join(nil, url: url, listener: listener) { _ in
            do {
                try await gate.wait()
                outcomeSink.yield("released")
            } catch {
                outcomeSink.yield("cancelled")
            }
            return .failure(ImageLoadError(.cancelled, "the test's pipeline ended", url: url))
        }
        #expect(loads.listenerCount == 1)
        operation.attach(subscription)
        #expect(loads.listenerCount == 0)  // left on attach, without waiting for anything
        var iterator = outcomes.makeAsyncIterator()
        #expect(await iterator.next() == "cancelled")  // its last caller gone, the pipeline was cancelled
        // A cancel hook set after the cancel runs at once, too.
        let ran = LockedValue(false)
        operation.onCancel { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
    }
}
