import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// Many loads through one manager: no completion lost or duplicated, no recursion through long lists.
@Suite struct ManagerStressTests {
    /// 2,000 loads over 200 URLs, a random third of them cancelled at random moments: every load that was
    /// not cancelled completes exactly once, no cancelled load completes, and nothing stays registered.
    @Test func randomCancellationsNeverLoseOrDuplicateACompletion() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let urls = (0..<200).map { MockLoader.url("stress-\($0).png") }
        for url in urls { fixture.loader.serve(url, width: 4, height: 4) }
        var generator = SystemRandomNumberGenerator()
        let counts = LockedValue<[Int: Int]>([:])
        let (finished, finishedSink) = AsyncStream.makeStream(of: Int.self)
        var operations: [LoadOperation] = []
        for index in 0..<2_000 {
            let url = urls[Int.random(in: 0..<urls.count, using: &generator)]
            var context = ImageLoadContext()
            if index % 7 == 0 { context.thumbnailPixelSize = PixelSize(width: 2, height: 2) }
            let operation = fixture.manager.loadImage(with: url, context: context) { result in
                if case .success(let loaded) = result, !loaded.isFinished { return }
                counts.withLock { $0[index, default: 0] += 1 }
                finishedSink.yield(index)
            }
            operations.append(operation)
            if Bool.random(using: &generator), let victim = operations.randomElement(using: &generator) {
                victim.cancel()
            }
            if index % 50 == 0 { await Task.yield() }
        }
        let expected = operations.filter { !$0.isCancelled }.count
        var received = 0
        for await _ in finished {
            received += 1
            if received == expected { break }
        }
        try await fixture.waitUntilIdle()
        let delivered = counts.withLock { $0 }
        for (index, operation) in operations.enumerated() {
            if operation.isCancelled {
                #expect(delivered[index] == nil, "cancelled load \(index) completed")
            } else {
                #expect(delivered[index] == 1, "load \(index) completed \(delivered[index] ?? 0) times")
            }
        }
        #expect(!fixture.manager.isRunning)
    }

    @Test func memoryHitsDoNotRecurseThroughALongList() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("same.png")
        fixture.loader.serve(url)
        _ = try await fixture.manager.loadImage(from: url)
        let prefetcher = ImagePrefetcher(manager: fixture.manager, options: [], storesInMemory: true)
        let summary = await prefetcher.prefetch(Array(repeating: url, count: 20_000))
        #expect(summary == (20_000, 0))
        #expect(fixture.loader.loads(of: url) == 1)
    }
}
