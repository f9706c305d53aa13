import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// ImageCache store, remove, clear and info (SPEC IC-14…IC-30, K-06).
@Suite struct ImageCacheTests {
    @Test func ic14StoreGoesToMemoryAndDiskByDefaultAndMemoryOnlyWhenAsked() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(ImageCacheFixture.opaque, forKey: "both")
        try await cache.store(ImageCacheFixture.opaque, forKey: "memory", cacheType: .memory)
        try await cache.store(ImageCacheFixture.opaque, forKey: "disk", cacheType: .disk)
        #expect(await cache.contains("both") == .memory)
        #expect(await cache.storedData(forKey: "both")?.data != nil)
        #expect(await cache.contains("memory") == .memory)
        #expect(!(await cache.diskCache.contains("memory")))
        #expect(await cache.contains("disk") == .disk && cache.imageFromMemory(forKey: "disk") == nil)
    }

    @Test func ic15TheDiskWriteHappensOnTheIOQueueAndTheCallbackFormReportsIt() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        let failure: ImageCacheError?? = await withCheckedContinuation { continuation in
            cache.store(ImageCacheFixture.opaque, forKey: "k") { continuation.resume(returning: $0) }
        }
        #expect(failure.map { $0 == nil } == true)
        #expect(cache.imageFromMemory(forKey: "k") === ImageCacheFixture.opaque)
        #expect(await cache.storedData(forKey: "k")?.data != nil)
    }

    @Test func ic16AndK06WithoutDataAnImageWithAlphaIsStoredAsPNGAndAnOpaqueOneAsJPEG() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(ImageCacheFixture.translucent, forKey: "alpha")
        try await cache.store(ImageCacheFixture.opaque, forKey: "opaque")
        #expect(ImageFormat(detecting: try #require(await cache.storedData(forKey: "alpha")?.data)) == .png)
        #expect(ImageFormat(detecting: try #require(await cache.storedData(forKey: "opaque")?.data)) == .jpeg)
    }

    @Test func ic17TheOriginalBytesAreStoredAsGivenAndASerializerWinsOverThem() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let original = try ImageCacheFixture.png()
        let plain = ImageCacheFixture.cache(root, namespace: "plain")
        try await plain.store(ImageCacheFixture.opaque, data: original, forKey: "k")
        #expect(await plain.storedData(forKey: "k")?.data == original)
        let seen = LockedValue<String?>(nil)
        let serialized = ImageCacheFixture.cache(root, namespace: "serialized") { configuration in
            configuration.serializer = { _, data, key in
                seen.withLock { $0 = key }
                return data.map { Data("X".utf8) + $0 }
            }
        }
        try await serialized.store(ImageCacheFixture.opaque, data: original, forKey: "k")
        #expect(await serialized.storedData(forKey: "k")?.data == Data("X".utf8) + original)
        #expect(seen.withLock { $0 } == "k")
        try await serialized.store(nil, data: nil, forKey: "nothing")
        #expect(await serialized.contains("nothing") == .notCached)
    }

    @Test func extendedDataIsStoredWithTheEntryAndReturnedByADiskQuery() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(nil, data: try ImageCacheFixture.png(), forKey: "k", extendedData: Data("etag".utf8))
        let hit = try #require(await cache.image(forKey: "k"))
        #expect(hit.cacheType == .disk && hit.extendedData == Data("etag".utf8))
    }

    @Test func ic26RemoveTakesTheKeyFromMemoryDiskOrBoth() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        for key in ["a", "b", "c"] { try await cache.store(ImageCacheFixture.opaque, forKey: key) }
        try await cache.remove(forKey: "a", cacheType: .memory)
        try await cache.remove(forKey: "b", cacheType: .disk)
        try await cache.remove(forKey: "c")
        #expect(await cache.contains("a") == .disk)
        #expect(await cache.contains("b") == .memory)
        #expect(!(await cache.diskCache.contains("b")))
        #expect(await cache.contains("c") == .notCached)
    }

    @Test func ic27AndIC28ClearMemoryAndClearDiskAreSeparate() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(ImageCacheFixture.opaque, forKey: "k")
        cache.clearMemory()
        #expect(await cache.contains("k") == .disk)
        try await cache.store(ImageCacheFixture.opaque, forKey: "k", cacheType: .memory)
        try await cache.clear(cacheType: .disk)
        #expect(await cache.contains("k") == .memory)
        #expect(FileManager.default.fileExists(atPath: cache.diskCache.directory.path))
    }

    @Test func ic29CleanDiskRemovesOnlyExpiredEntries() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root) { $0.disk.maxAge = .seconds(3600) }
        try await cache.store(nil, data: Data([1]), forKey: "old")
        try await cache.store(nil, data: Data([2]), forKey: "new")
        FileDates.set(cache.diskCache.storage.fileURL(forKey: "old").path, modification: Date().addingTimeInterval(-7200))
        let result = try await cache.diskCache.clean()
        #expect(result.expiredCount == 1)
        #expect(await cache.contains("old") == .notCached)
        #expect(await cache.contains("new") == .disk)
    }

    @Test func ic30TotalDiskSizeAndDiskCountWalkTheDirectory() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        for index in 0..<3 { try await cache.store(nil, data: Data(count: 5000 + index), forKey: "k\(index)") }
        #expect(try await cache.diskCache.count() == 3)
        #expect(try await cache.diskCache.totalSize() >= 15000)
    }

    @Test func ic08AndIC11SharedIsTheDefaultNamespaceAndNamespacesHaveTheirOwnDirectories() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        #expect(ImageCache.shared.namespace == "default")
        #expect(ImageCache.shared.diskCache.directory.lastPathComponent == "default")
        let a = ImageCacheFixture.cache(root, namespace: "a"), b = ImageCacheFixture.cache(root, namespace: "b")
        #expect(a.diskCache.directory != b.diskCache.directory)
        #expect(a.diskCache.directory.deletingLastPathComponent().path == root.url.standardizedFileURL.path)
    }

    @Test func theCacheDirectoryDeletedWhileRunningIsRecreatedOnTheNextStore() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root)
        try await cache.store(ImageCacheFixture.opaque, forKey: "a")
        try FileManager.default.removeItem(at: cache.diskCache.directory)
        try await cache.store(ImageCacheFixture.opaque, forKey: "b")
        #expect(await cache.diskCache.contains("b"))
    }

    @Test func aFailingDiskWriteReportsAnErrorWhileTheMemoryCacheStillWorks() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let blocker = root.url.appendingPathComponent("file")
        try Data("plain file".utf8).write(to: blocker)
        let cache = ImageCache(namespace: "n", root: blocker)   // a directory under a regular file
        do {
            try await cache.store(ImageCacheFixture.opaque, forKey: "k")
            Issue.record("the store should fail")
        } catch {
            #expect(error.code == .diskFailed && error.underlying is DiskCacheError)
        }
        #expect(cache.imageFromMemory(forKey: "k") === ImageCacheFixture.opaque)
        #expect(await cache.image(forKey: "k")?.cacheType == .memory)
    }

    @Test func theConfigurationReachesTheMemoryAndDiskParts() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root) { configuration in
            configuration.memory.usesWeakCache = false
            configuration.memory.countLimit = 7
            configuration.disk.maxSize = 1234
        }
        #expect(!cache.memoryCache.configuration.usesWeakCache && cache.memoryCache.configuration.countLimit == 7)
        #expect(cache.diskCache.storage.configuration.maxSize == 1234)
        #expect(ImageCache.Configuration().cachesImagesInMemory && ImageCache.Configuration().sweepInterval == nil)
    }
}
