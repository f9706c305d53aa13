import Dispatch
import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// ImageCache queries (SPEC IC-18…IC-25, MC-06, MC-07, K-07).
@Suite struct ImageCacheQueryTests {
    /// Holds the I/O queue until `release()`, so queued queries can be cancelled before they run.
    final class QueueBlocker: Sendable {
        let gate = DispatchSemaphore(value: 0)
        init(_ cache: ImageCache) { cache.diskCache.enqueue { [gate] _ in gate.wait() } }
        func release() { gate.signal() }
    }

    /// Waits until everything queued on the I/O queue before it has run.
    static func drain(_ cache: ImageCache) async {
        await withCheckedContinuation { continuation in cache.diskCache.enqueue { _ in continuation.resume() } }
    }

    @Test func ic19AndK07AMemoryHitCallsBackSynchronouslyWithoutAnOperation() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(ImageCacheFixture.opaque, forKey: "k", cacheType: .memory)
        let blocker = QueueBlocker(cache)          // a hit must not need the I/O queue
        defer { blocker.release() }
        let called = LockedValue<CacheQueryResult?>(nil)
        let operation = cache.queryImage(forKey: "k") { result in called.withLock { $0 = result } }
        #expect(operation == nil)
        let result = try #require(called.withLock { $0 })
        #expect(result.cacheType == .memory && result.image === ImageCacheFixture.opaque && result.data == nil)
        #expect(await cache.image(forKey: "k")?.cacheType == .memory)
    }

    @Test func k07QueryMemoryDataReadsTheBytesAndStillReportsMemory() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        let png = try ImageCacheFixture.png()
        try await cache.store(ImageCacheFixture.opaque, data: png, forKey: "k")
        let async = try #require(await cache.image(forKey: "k", options: .queryMemoryData))
        #expect(async.cacheType == .memory && async.image === ImageCacheFixture.opaque && async.data == png)
        let called = LockedValue<CacheQueryResult?>(nil)
        let operation = cache.queryImage(forKey: "k", options: [.queryMemoryData, .queryMemoryDataSync]) { result in
            called.withLock { $0 = result }
        }
        #expect(operation == nil && called.withLock { $0?.data } == png)
    }

    @Test func ic02QueryDiskDataSyncCallsBackBeforeReturning() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(nil, data: try ImageCacheFixture.png(), forKey: "k")
        let called = LockedValue<CacheQueryResult?>(nil)
        let operation = cache.queryImage(forKey: "k", options: .queryDiskDataSync) { result in called.withLock { $0 = result } }
        #expect(operation == nil && called.withLock { $0?.cacheType } == .disk)
    }

    @Test func ic18ACancelledQueryNeverCallsBack() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(nil, data: try ImageCacheFixture.png(), forKey: "k")
        let blocker = QueueBlocker(cache)
        let calls = LockedValue(0)
        let (keptDone, keptSink) = AsyncStream.makeStream(of: Void.self)
        let cancelled = try #require(cache.queryImage(forKey: "k") { _ in calls.withLock { $0 += 1 } })
        let kept = try #require(cache.queryImage(forKey: "k") { _ in
            calls.withLock { $0 += 10 }
            keptSink.yield()
        })
        cancelled.cancel()
        blocker.release()
        var iterator = keptDone.makeAsyncIterator()
        await iterator.next()  // the cancelled query ran first on the I/O queue, and stopped there
        await Self.drain(cache)
        #expect(calls.withLock { $0 } == 10 && cancelled.isCancelled && kept.isFinished)
    }

    @Test func ic18CancellingTheAsyncQueryReturnsNil() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(nil, data: try ImageCacheFixture.png(), forKey: "k")
        let blocker = QueueBlocker(cache)
        let task = Task { await cache.image(forKey: "k") }
        task.cancel()
        blocker.release()
        #expect(await task.value == nil)
    }

    @Test func ic19AndMC07ADiskHitIsDecodedAndPromotedToMemory() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(nil, data: try ImageCacheFixture.png(width: 6, height: 5), forKey: "k")
        #expect(cache.imageFromMemory(forKey: "k") == nil)
        let hit = try #require(await cache.image(forKey: "k"))
        #expect(hit.cacheType == .disk && hit.image?.pixelSize == PixelSize(width: 6, height: 5))
        #expect(cache.imageFromMemory(forKey: "k") === hit.image)
        #expect(await cache.image(forKey: "k")?.cacheType == .memory)
    }

    @Test func ic19TheCallersDecodingOptionsAreUsedForADiskHit() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(nil, data: try ImageCacheFixture.png(width: 40, height: 20), forKey: "k")
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 10, height: 10))
        let hit = try #require(await cache.image(forKey: "k", decoding: options))
        #expect(hit.image?.pixelSize == PixelSize(width: 10, height: 5))
    }

    @Test func ic21ADiskHitTakesTheScaleOfItsKey() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(nil, data: try ImageCacheFixture.png(), forKey: "https://e.com/icon@2x.png")
        #expect(await cache.image(forKey: "https://e.com/icon@2x.png")?.image?.scale == 2)
    }

    @Test func ic22SynchronousReadsFromMemoryAndDisk() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(nil, data: try ImageCacheFixture.png(), forKey: "k")
        #expect(cache.imageFromMemory(forKey: "k") == nil)
        let hit = LockedValue<CacheQueryResult?>(nil)
        let operation = cache.queryImage(forKey: "k", options: [.queryDiskDataSync]) { result in hit.withLock { $0 = result } }
        #expect(operation == nil)   // answered before returning
        #expect(hit.withLock { $0 }?.cacheType == .disk)
        #expect(cache.imageFromMemory(forKey: "k") != nil)
    }

    @Test func ic12AndIC24ReadOnlyDirectoriesAreSearchedAfterTheMainOne() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let bundled = DiskStorage(directory: root.url.appendingPathComponent("bundle"))
        try bundled.store(try ImageCacheFixture.png(), forKey: "k.png")
        let cache = ImageCacheFixture.cache(root) { $0.disk.readOnlyDirectories = [bundled.directory] }
        #expect(await cache.contains("k.png") == .disk)
        #expect(await cache.image(forKey: "k.png")?.cacheType == .disk)
    }

    @Test func ic25ContainsFindsAnEntryStoredWithoutTheExtension() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        let bare = cache.diskCache.directory.appendingPathComponent(
            String(DiskStorage.fileName(forKey: "https://e.com/a.png").prefix(32)))
        try FileManager.default.createDirectory(at: cache.diskCache.directory, withIntermediateDirectories: true)
        try ImageCacheFixture.png().write(to: bare)
        #expect(await cache.contains("https://e.com/a.png") == .disk)
    }

    @Test func aCorruptFileOnDiskIsAMissAndIsRemoved() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(nil, data: Data("not an image".utf8), forKey: "k")
        #expect(await cache.image(forKey: "k") == nil)
        #expect(await cache.contains("k") == .notCached)
    }

    @Test func mc06WithMemoryOffEveryHitComesFromDisk() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root) { $0.cachesImagesInMemory = false }
        try await cache.store(ImageCacheFixture.opaque, data: try ImageCacheFixture.png(), forKey: "k")
        #expect(await cache.image(forKey: "k")?.cacheType == .disk)
        #expect(await cache.image(forKey: "k")?.cacheType == .disk && cache.memoryCache.count == 0)
    }

    @Test func aMemoryOnlyQueryNeverReadsTheDisk() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(nil, data: try ImageCacheFixture.png(), forKey: "k")
        #expect(await cache.image(forKey: "k", cacheType: .memory) == nil)
        #expect(await cache.image(forKey: "k", cacheType: .disk)?.cacheType == .disk)
    }

    @Test func ic20ADiskHitCarriesTheImageItsBytesAndTheCacheType() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        let png = try ImageCacheFixture.png()
        try await cache.store(nil, data: png, forKey: "k")
        let result: CacheQueryResult? = await withCheckedContinuation { continuation in
            cache.queryImage(forKey: "k") { continuation.resume(returning: $0) }
        }
        let hit = try #require(result)
        #expect(hit.image?.pixelSize == PixelSize(width: 4, height: 3) && hit.data == png && hit.cacheType == .disk)
    }
}
