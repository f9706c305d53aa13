import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// Housekeeping without an app lifecycle (SPEC IC-31, DC-08): cleanExpired, the periodic sweep, clean at start.
@Suite struct ImageCacheHousekeepingTests {
    @Test func cleanExpiredRemovesExpiredDiskEntriesAndExpiredMemoryEntries() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root) {
            $0.disk.maxAge = .seconds(3600)
            $0.memory.timeToLive = .milliseconds(20)
        }
        try await cache.store(nil, data: Data([1]), forKey: "old")
        FileDates.set(cache.diskCache.storage.fileURL(forKey: "old").path, modification: Date().addingTimeInterval(-7200))
        try await cache.store(Image(pixels: PixelBuffer(width: 2, height: 2)), data: nil, forKey: "memory", cacheType: .memory)
        #expect(cache.memoryCache.count == 1)
        try await Task.sleep(for: .milliseconds(60))  // the entry's time to live passes
        #expect(cache.memoryCache.count == 1, "an expired entry stays counted until something removes it")
        let result = try await cache.cleanExpired()
        #expect(result.expiredCount == 1 && result.remainingCount == 0)
        #expect(cache.memoryCache.count == 0, "cleanExpired removes expired memory entries too")
    }

    @Test func theSweepIsOffByDefault() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        #expect(!ImageCacheFixture.cache(root).isSweeping)
    }

    @Test func thePeriodicSweepCleansAndReportsEachRunUntilStopped() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCacheFixture.cache(root) {
            $0.disk.maxAge = .seconds(3600)
            $0.sweepInterval = .milliseconds(5)
        }
        #expect(cache.isSweeping)
        try await cache.store(nil, data: Data([1]), forKey: "old")
        FileDates.set(cache.diskCache.storage.fileURL(forKey: "old").path, modification: Date().addingTimeInterval(-7200))
        var removed = false
        for await result in cache.sweeps {
            if result.remainingCount == 0 { removed = true; break }
        }
        #expect(removed)
        #expect(await cache.contains("old") == .notCached)
        cache.stopSweeping()
        #expect(!cache.isSweeping)
    }

    @Test func aCleanAtStartRemovesExpiredEntries() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let first = ImageCacheFixture.cache(root)
        try await first.store(nil, data: Data([1]), forKey: "old")
        FileDates.set(first.diskCache.storage.fileURL(forKey: "old").path, modification: Date().addingTimeInterval(-7200))
        let second = ImageCacheFixture.cache(root) {
            $0.disk.maxAge = .seconds(3600)
            $0.cleansOnStart = true
        }
        // The start clean is queued on the I/O queue at creation, so a later lookup runs after it.
        #expect(await second.diskCache.contains("old") == false)
    }
}
