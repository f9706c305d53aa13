import Foundation
import Testing
@testable import WebImageKit
import WebImageTestSupport

/// Cancelling loads (SPEC MG-46, MG-51, MG-69, CO-03…CO-07) and sharing one load between callers (issue item 4).
@Suite struct ImageManagerCancellationTests {
    @Test func mg51ACancelledLoadNeverCompletesAndItsDownloadStops() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        fixture.loader.hold()
        let deliveries = Deliveries()
        let operation = fixture.manager.loadImage(with: url, completed: deliveries.completion)
        var arrivals = fixture.loader.arrivals.makeAsyncIterator()
        _ = await arrivals.next()  // the download has started
        operation.cancel()
        #expect(operation.isCancelled)
        #expect(!fixture.manager.isRunning)
        fixture.loader.release()
        // The cancellation reaches the loader; once it has, nothing can be delivered any more.
        try await eventually { fixture.loader.cancellations > 0 }
        #expect(fixture.loader.cancellations == 1)
        #expect(deliveries.count == 0)
    }

    @Test func co07CancellingTheTaskOfAnAsyncLoadThrowsCancelled() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        fixture.loader.hold()
        let task = Task { try await fixture.manager.loadImage(from: url) }
        var arrivals = fixture.loader.arrivals.makeAsyncIterator()
        _ = await arrivals.next()
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled load must throw")
        } catch let error as ImageLoadError {
            #expect(error.code == .cancelled)
        }
        fixture.loader.release()
        #expect(fixture.manager.failedURLs.isEmpty)  // a cancellation never blocks a URL
    }

    @Test func cancellingAfterTheResultDoesNothing() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        let deliveries = Deliveries()
        let operation = fixture.manager.loadImage(with: url, completed: deliveries.completion)
        _ = await deliveries.next()
        operation.cancel()
        #expect(!operation.isCancelled)
        #expect(operation.isFinished)
    }

    @Test func mg34AndMG69CancelAllCancelsEveryRunningLoad() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        fixture.loader.hold()
        let deliveries = Deliveries()
        let operations = (0..<5).map { index in
            let url = MockLoader.url("\(index).png")
            fixture.loader.serve(url)
            return fixture.manager.loadImage(with: url, completed: deliveries.completion)
        }
        #expect(fixture.manager.runningCount == 5)
        fixture.manager.cancelAll()
        #expect(!fixture.manager.isRunning)
        #expect(operations.allSatisfy { $0.isCancelled })
        fixture.loader.release()
        // Loads cancelled before reaching the loader never start; the others see the cancellation.
        try await eventually { fixture.loader.cancellations == fixture.loader.totalLoads }
        #expect(fixture.loader.cancellations == fixture.loader.totalLoads)
        #expect(deliveries.count == 0)
    }

    @Test func simultaneousLoadsOfOneURLShareOneDownloadDecodeAndTransform() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("shared.png")
        fixture.loader.serve(url)
        fixture.loader.hold()
        let transformer = CountingTransformer()
        var context = ImageLoadContext()
        context.transformer = transformer
        let deliveries = Deliveries()
        for _ in 0..<20 {
            fixture.manager.loadImage(with: url, context: context, completed: deliveries.completion)
        }
        fixture.loader.release()
        var images: [Image] = []
        for _ in 0..<20 { images.append(try #require(await deliveries.next()).get().image) }
        #expect(fixture.loader.loads(of: url) == 1)
        #expect(transformer.count == 1)  // one frame, transformed once
        #expect(images.allSatisfy { $0 === images[0] })
    }

    @Test func cancellingOneOfTwoSharedLoadsKeepsTheOther() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("shared.png")
        fixture.loader.serve(url)
        fixture.loader.hold()
        let first = Deliveries()
        let second = Deliveries()
        let cancelled = fixture.manager.loadImage(with: url, completed: first.completion)
        fixture.manager.loadImage(with: url, completed: second.completion)
        cancelled.cancel()
        fixture.loader.release()
        let result = try #require(await second.next()).get()
        #expect(result.cacheType == .notCached)
        #expect(first.count == 0)
        #expect(fixture.loader.loads(of: url) == 1)
        #expect(fixture.loader.cancellations == 0)
    }
}
