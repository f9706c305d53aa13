import Dispatch
import Foundation
import Testing
@testable import WebImageKit
import WebImageTestSupport

/// Group commit (issue 33): flushed stores waiting on the disk cache's I/O queue share one flush, stay atomic and
/// durable each, fail alone, and never overtake an earlier operation on their key.
@Suite struct DiskCacheGroupCommitTests {
    static func payload(_ key: String) -> Data { Data("bytes of \(key)".utf8) }
    /// Entries flushed before their rename (not the default).
    static let flushed = DiskCacheConfiguration(synchronizesWrites: true)

    @Test func aBatchOfStoresIsFlushedOnceAndEveryEntryReadsBack() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url, configuration: Self.flushed)
        let keys = (0..<5).map { "https://example.com/\($0).jpg" }
        let failures = storage.store(keys.map { DiskStorage.Write(data: Self.payload($0), key: $0, extendedData: Data($0.utf8)) })
        #expect(failures.allSatisfy { $0 == nil })
        #expect(storage.synchronizationCount == 1)
        for key in keys {
            let entry = try #require(storage.entry(forKey: key))
            #expect(entry.data == Self.payload(key) && entry.extendedData == Data(key.utf8))
        }
        #expect(root.names(in: "n").allSatisfy { !$0.hasPrefix(".tmp-") })
    }

    @Test func storesMadeOneByOneAreFlushedOnceEach() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url, configuration: Self.flushed)
        for index in 0..<5 { try storage.store(Self.payload("\(index)"), forKey: "\(index)") }
        #expect(storage.synchronizationCount == 5)
    }

    @Test func aBatchWithoutSynchronizedWritesIsNeverFlushed() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url)
        #expect(storage.store((0..<3).map { DiskStorage.Write(data: Self.payload("\($0)"), key: "\($0)") }).allSatisfy { $0 == nil })
        #expect(storage.synchronizationCount == 0)
        #expect(storage.data(forKey: "2") == Self.payload("2"))
    }

    /// Extended data in sidecar files means no extended attributes, hence no recorded length: the entries are flushed.
    @Test func sidecarFilesOfABatchShareItsFlushAndReadBack() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url, configuration: DiskCacheConfiguration(extendedDataStorage: .sidecarFile))
        let failures = storage.store((0..<3).map { DiskStorage.Write(data: Self.payload("\($0)"), key: "\($0)", extendedData: Data([UInt8($0)])) })
        #expect(failures.allSatisfy { $0 == nil })
        #expect(storage.synchronizationCount == 1)
        for index in 0..<3 { #expect(storage.entry(forKey: "\(index)")?.extendedData == Data([UInt8(index)])) }
        #expect(root.names(in: "n").filter { $0.hasSuffix(".ext") }.count == 3)
    }

    @Test func anEntryThatFailsLeavesTheOthersOfItsBatchStored() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url)
        try storage.store(Data([0]), forKey: "first")   // creates the directory
        try FileManager.default.createDirectory(at: storage.fileURL(forKey: "b"), withIntermediateDirectories: true)
        let failures = storage.store(["a", "b", "c"].map { DiskStorage.Write(data: Self.payload($0), key: $0) })
        #expect(failures[0] == nil && failures[2] == nil)
        #expect(failures[1]?.code == .writeFailed)
        #expect(storage.data(forKey: "a") == Self.payload("a") && storage.data(forKey: "c") == Self.payload("c"))
        #expect(storage.data(forKey: "b") == nil)
        #expect(root.names(in: "n").allSatisfy { !$0.hasPrefix(".tmp-") })
    }

    /// Holds `cache`'s I/O queue until the returned semaphore is signalled (every test does, pass or fail).
    static func holdQueue(of cache: DiskCache) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        cache.enqueue { _ in _ = release.wait(timeout: .now() + 600) }
        return release
    }

    /// Queues a store of `data` for `key` through the callback form, which queues before it returns.
    static func queueStore(_ cache: ImageCache, _ data: Data, _ key: String, failures: LockedValue<[String: ImageCacheError]>) {
        cache.store(nil, data: data, forKey: key, cacheType: .disk) { error in
            if let error { failures.withLock { $0[key] = error } }
        }
    }

    @Test func storesQueuedWhileTheQueueIsBusyShareOneFlush() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCache(namespace: "n", root: root.url, configuration: ImageCache.Configuration(disk: Self.flushed))
        let failures = LockedValue<[String: ImageCacheError]>([:])
        let release = Self.holdQueue(of: cache.diskCache)
        let keys = (0..<6).map { "https://example.com/\($0).png" }
        for key in keys { Self.queueStore(cache, Self.payload(key), key, failures: failures) }
        #expect(cache.diskBacklogBytes == keys.reduce(0) { $0 + Self.payload($1).count })
        release.signal()
        await cache.flush()
        #expect(failures.withLock { $0.isEmpty })
        #expect(cache.diskCache.storage.synchronizationCount == 1)
        #expect(cache.diskBacklogBytes == 0)
        for key in keys { #expect(await cache.diskCache.entry(forKey: key)?.data == Self.payload(key)) }
    }

    @Test func aStoreThatFailsInABatchIsReportedAloneAndTheOthersAreStored() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCache(namespace: "n", root: root.url)
        try await cache.store(nil, data: Data([0]), forKey: "first", cacheType: .disk)
        try FileManager.default.createDirectory(at: cache.diskCache.fileURL(forKey: "b"), withIntermediateDirectories: true)
        let failures = LockedValue<[String: ImageCacheError]>([:])
        let release = Self.holdQueue(of: cache.diskCache)
        for key in ["a", "b", "c"] { Self.queueStore(cache, Self.payload(key), key, failures: failures) }
        release.signal()
        await cache.flush()
        #expect(failures.withLock { Array($0.keys) } == ["b"])
        #expect(failures.withLock { $0["b"]?.code } == .diskFailed)
        #expect(await cache.diskCache.entry(forKey: "a")?.data == Self.payload("a"))
        #expect(await cache.diskCache.entry(forKey: "c")?.data == Self.payload("c"))
    }

    @Test func aStoreQueuedAfterAnOperationOnItsKeyIsWrittenAfterIt() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCache(namespace: "n", root: root.url, configuration: ImageCache.Configuration(disk: Self.flushed))
        let failures = LockedValue<[String: ImageCacheError]>([:])
        let release = Self.holdQueue(of: cache.diskCache)
        Self.queueStore(cache, Data("old".utf8), "k", failures: failures)
        cache.diskCache.enqueue(forKey: "k") { try? $0.remove(forKey: "k") }
        Self.queueStore(cache, Data("other".utf8), "j", failures: failures)   // joins the first batch
        Self.queueStore(cache, Data("new".utf8), "k", failures: failures)     // must wait for the removal
        release.signal()
        await cache.flush()
        #expect(await cache.diskCache.entry(forKey: "k")?.data == Data("new".utf8))
        #expect(await cache.diskCache.entry(forKey: "j")?.data == Data("other".utf8))
        #expect(cache.diskCache.storage.synchronizationCount == 2)   // {old k, j}, then {new k}
    }

    @Test func anOperationWithoutAKeyKeepsEveryLaterStoreBehindIt() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCache(namespace: "n", root: root.url)
        let failures = LockedValue<[String: ImageCacheError]>([:])
        let release = Self.holdQueue(of: cache.diskCache)
        Self.queueStore(cache, Data("a".utf8), "a", failures: failures)
        cache.diskCache.enqueue { try? $0.clear() }
        Self.queueStore(cache, Data("b".utf8), "b", failures: failures)
        release.signal()
        await cache.flush()
        #expect(await cache.diskCache.entry(forKey: "a") == nil)
        #expect(await cache.diskCache.entry(forKey: "b")?.data == Data("b".utf8))
    }

    @Test func theAsyncStoreOfADiskCacheIsWrittenAndFlushed() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = DiskCache(namespace: "n", root: root.url, configuration: Self.flushed)
        try await cache.store(Data([7]), forKey: "k", extendedData: Data([1]))
        #expect(cache.storage.synchronizationCount == 1)
        let entry = await cache.entry(forKey: "k")
        #expect(entry?.data == Data([7]) && entry?.extendedData == Data([1]))
    }
}

/// A lookup answers a miss itself when nothing queued touches its key, and waits its turn otherwise.
@Suite struct DiskCacheLookupTests {
    @Test func aMissOfAKeyNothingQueuedTouchesIsAnsweredWhileTheQueueIsBusy() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = DiskCache(namespace: "n", root: root.url)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        cache.enqueue(forKey: "held") { _ in _ = release.wait(timeout: .now() + 600) }
        let lookup = Task { await cache.entry(forKey: "missing") }
        let answered = LockedValue(false)
        Task { _ = await lookup.value; answered.withLock { $0 = true } }
        try await eventually { answered.withLock { $0 } }
        release.signal()   // before awaiting: a lookup that waited for the queue would wait for this
        #expect(await lookup.value == nil)
    }

    @Test func aLookupOfAKeyWithAQueuedStoreWaitsForTheStore() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCache(namespace: "n", root: root.url)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        cache.diskCache.enqueue(forKey: "held") { _ in _ = release.wait(timeout: .now() + 600) }
        DiskCacheGroupCommitTests.queueStore(cache, Data("bytes".utf8), "k", failures: LockedValue([:]))
        #expect(!cache.diskCache.answersMissHere(forKey: "k"))
        #expect(cache.diskCache.answersMissHere(forKey: "other"))
        release.signal()
        #expect(await cache.diskCache.entry(forKey: "k")?.data == Data("bytes".utf8))
    }

    @Test func everyKindOfOperationCountsUntilItIsDone() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCache(namespace: "n", root: root.url)
        let disk = cache.diskCache
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        disk.enqueue(forKey: "held") { _ in _ = release.wait(timeout: .now() + 600) }
        DiskCacheGroupCommitTests.queueStore(cache, Data("s".utf8), "stored", failures: LockedValue([:]))
        let removal = Task { try await disk.remove(forKey: "removed") }
        try await eventually { disk.pending.withLock { !$0.isIdle("removed") } }
        #expect(disk.pending.withLock { !$0.isIdle("held") && !$0.isIdle("stored") && $0.isIdle("other") })
        release.signal()
        try await removal.value
        await cache.flush()   // a key-less operation, queued after the others
        _ = disk.sync { _ in 0 }
        #expect(disk.pending.withLock { $0.isIdle("held") && $0.isIdle("stored") && $0.isIdle("removed") })
        #expect(disk.answersMissHere(forKey: "removed") && !disk.answersMissHere(forKey: "stored"))
    }

    @Test func pendingOperationsCountEachKeyAndThoseOnNoKeyCountForAll() {
        var pending = PendingOperations()
        pending.begin("a")
        pending.begin("a")
        pending.end("a")
        #expect(!pending.isIdle("a") && pending.isIdle("b"))
        pending.end("a")
        #expect(pending.isIdle("a"))
        pending.begin(nil)
        #expect(!pending.isIdle("b"))
        pending.end(nil)
        #expect(pending.isIdle("b"))
    }
}
