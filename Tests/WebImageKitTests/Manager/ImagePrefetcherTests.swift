import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// The prefetcher (SPEC PF-01…PF-20, K-17).
@Suite struct ImagePrefetcherTests {
    final class Recorder: ImagePrefetcherDelegate {
        let events = LockedValue<[String]>([])
        func imagePrefetcher(_ prefetcher: ImagePrefetcher, didPrefetch url: URL, finishedCount: Int, totalCount: Int) {
            events.withLock { $0.append("url \(finishedCount)/\(totalCount)") }
        }
        func imagePrefetcher(_ prefetcher: ImagePrefetcher, didFinishWithTotalCount totalCount: Int, skippedCount: Int) {
            events.withLock { $0.append("finish \(totalCount) \(skippedCount)") }
        }
    }

    static func urls(_ fixture: ManagerFixture, count: Int, failing: Set<Int> = []) -> [URL] {
        (0..<count).map { index in
            let url = MockLoader.url("prefetch-\(index).png")
            if failing.contains(index) {
                fixture.loader.fail(url, with: ImageDownloadError(.badStatus(404), "not found"))
            } else {
                fixture.loader.serve(url)
            }
            return url
        }
    }

    @Test func pf13AnEmptyListCompletesAtOnceWithZeroes() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let result = LockedValue<(Int, Int)?>(nil)
        ImagePrefetcher(manager: fixture.manager).prefetchURLs([], completed: { finished, skipped in
            result.withLock { $0 = (finished, skipped) }
        })
        #expect(result.withLock { $0 }.map { [$0.0, $0.1] } == [0, 0])
    }

    @Test func pf14AndK17AtMostThreeLoadsRunAtOnceAtLowPriority() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let urls = Self.urls(fixture, count: 12)
        fixture.loader.hold()
        let prefetcher = ImagePrefetcher(manager: fixture.manager)
        let updates = prefetcher.updates(for: urls)
        var arrivals = fixture.loader.arrivals.makeAsyncIterator()
        for _ in 0..<3 { _ = await arrivals.next() }
        #expect(fixture.loader.totalLoads == 3)
        fixture.loader.release()
        var last: ImagePrefetchUpdate?
        for await update in updates { last = update }
        #expect(last == .completed(finished: 12, skipped: 0))
        #expect(fixture.loader.maximumInFlight <= 3)
        #expect(fixture.loader.state.withLock { $0.options }.allSatisfy { $0.contains(.lowPriority) })
    }

    @Test func pf10AndPF16FailedURLsAreSkippedAndEveryURLCountsAsFinished() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let urls = Self.urls(fixture, count: 6, failing: [1, 4])
        let prefetcher = ImagePrefetcher(manager: fixture.manager)
        let recorder = Recorder()
        prefetcher.delegate = recorder
        var progress: [Int] = []
        var completion: ImagePrefetchUpdate?
        for await update in prefetcher.updates(for: urls) {
            switch update {
            case .progress(_, let finished, let total):
                #expect(total == 6)
                progress.append(finished)
            case .completed:
                completion = update
            }
        }
        #expect(progress == [1, 2, 3, 4, 5, 6])
        #expect(completion == .completed(finished: 6, skipped: 2))
        // PF-09, PF-18: the delegate hears the successes and the skipped count, after every URL.
        #expect(recorder.events.withLock { $0.last } == "finish 4 2")
        #expect(recorder.events.withLock { $0.count } == 7)
    }

    @Test func prefetchedImagesLandOnDiskAndInMemoryOnlyWhenAsked() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let urls = Self.urls(fixture, count: 3)
        var context = ImageLoadContext()
        context.decodingOptions = ImageDecodingOptions()
        let diskOnly = ImagePrefetcher(manager: fixture.manager, options: [.lowPriority, .waitStoreCache])
        #expect(await diskOnly.prefetch(urls) == (3, 0))
        for url in urls {
            #expect(await fixture.cache.contains(url.absoluteString, cacheType: .all) == .disk)
        }
        let more = Self.urls(fixture, count: 5).suffix(2)
        let withMemory = ImagePrefetcher(manager: fixture.manager, options: [.waitStoreCache], storesInMemory: true)
        #expect(await withMemory.prefetch(Array(more)) == (2, 0))
        for url in more {
            #expect(fixture.cache.imageFromMemory(forKey: url.absoluteString) != nil)
        }
    }

    @Test func pf12ANewPrefetchCancelsThePreviousOne() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let first = Self.urls(fixture, count: 4)
        let second = [MockLoader.url("second.png")]
        fixture.loader.serve(second[0])
        fixture.loader.hold()
        let prefetcher = ImagePrefetcher(manager: fixture.manager)
        let firstCompleted = LockedValue(false)
        let batch = prefetcher.prefetchURLs(first, completed: { _, _ in firstCompleted.withLock { $0 = true } })
        let summary = Task { await prefetcher.prefetch(second) }
        fixture.loader.release()
        #expect(await summary.value == (1, 0))
        #expect(batch.isCancelled)
        #expect(!firstCompleted.withLock { $0 })
    }

    @Test func pf07AndPF19CancelPrefetchingStopsTheBatchButNotOtherLoads() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let urls = Self.urls(fixture, count: 5)
        let other = MockLoader.url("other.png")
        fixture.loader.serve(other)
        fixture.loader.hold()
        let deliveries = Deliveries()
        fixture.manager.loadImage(with: other, completed: deliveries.completion)
        let prefetcher = ImagePrefetcher(manager: fixture.manager)
        let updates = prefetcher.updates(for: urls)
        prefetcher.cancelPrefetching()
        var received: [ImagePrefetchUpdate] = []
        for await update in updates { received.append(update) }  // ends without a completion
        #expect(received.isEmpty)
        fixture.loader.release()
        #expect(try #require(await deliveries.next()).get().url == other)
    }
}
