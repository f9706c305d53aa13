import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// Several caches as one (SDWebImage's caches manager), with two ImageCaches.
@Suite struct ImageCachesManagerTests {
    struct Pair {
        let root: TemporaryDirectory
        let high: ImageCache
        let low: ImageCache
        let manager: ImageCachesManager

        init() throws {
            root = try TemporaryDirectory()
            high = ImageCacheFixture.cache(root, namespace: "high")
            low = ImageCacheFixture.cache(root, namespace: "low")
            manager = ImageCachesManager(caches: [high, low])
        }
    }

    @Test func aSerialQueryAsksTheHighestPriorityCacheFirstAndFallsThrough() async throws {
        let pair = try Pair()
        defer { pair.root.remove() }
        try await pair.low.store(nil, data: try ImageCacheFixture.png(), forKey: "low-only")
        try await pair.high.store(ImageCacheFixture.opaque, forKey: "both", cacheType: .memory)
        try await pair.low.store(ImageCacheFixture.translucent, forKey: "both", cacheType: .memory)
        #expect(pair.manager.imageFromMemory(forKey: "both") === ImageCacheFixture.opaque)
        #expect(await pair.manager.storedData(forKey: "low-only")?.data == (try ImageCacheFixture.png()))
        #expect(await pair.manager.storedData(forKey: "missing") == nil)
    }

    @Test func highestOnlyAndLowestOnlyQueriesAskOneCache() async throws {
        let pair = try Pair()
        defer { pair.root.remove() }
        try await pair.low.store(nil, data: try ImageCacheFixture.png(), forKey: "k")
        pair.manager.queryPolicy = .highestOnly
        #expect(await pair.manager.storedData(forKey: "k") == nil)
        pair.manager.queryPolicy = .lowestOnly
        #expect(await pair.manager.storedData(forKey: "k")?.data == (try ImageCacheFixture.png()))
    }

    @Test func aConcurrentQueryReturnsAHitFromWhicheverCacheHasIt() async throws {
        let pair = try Pair()
        defer { pair.root.remove() }
        pair.manager.queryPolicy = .concurrent
        try await pair.low.store(nil, data: try ImageCacheFixture.png(), forKey: "k")
        #expect(await pair.manager.storedData(forKey: "k")?.cacheType == .disk)
        #expect(await pair.manager.storedData(forKey: "missing") == nil)
    }

    @Test func storesGoToTheHighestCacheByDefaultAndToAllWhenAsked() async throws {
        let pair = try Pair()
        defer { pair.root.remove() }
        try await pair.manager.store(ImageCacheFixture.opaque, forKey: "a")
        #expect(await pair.high.contains("a") == .memory)
        #expect(await pair.low.contains("a") == .notCached)
        pair.manager.storePolicy = .concurrent
        try await pair.manager.store(ImageCacheFixture.opaque, forKey: "b")
        #expect(await pair.high.contains("b") == .memory)
        #expect(await pair.low.contains("b") == .memory)
        pair.manager.storePolicy = .lowestOnly
        try await pair.manager.store(ImageCacheFixture.opaque, forKey: "c")
        #expect(await pair.manager.contains("c") == .memory)
        #expect(pair.high.imageFromMemory(forKey: "c") == nil)
    }

    @Test func removeAndClearReachEveryCacheByDefault() async throws {
        let pair = try Pair()
        defer { pair.root.remove() }
        pair.manager.storePolicy = .serial
        try await pair.manager.store(ImageCacheFixture.opaque, forKey: "a")
        try await pair.manager.store(ImageCacheFixture.opaque, forKey: "b")
        try await pair.manager.remove(forKey: "a")
        #expect(await pair.manager.contains("a") == .notCached)
        #expect(await pair.manager.contains("b") == .memory)
        try await pair.manager.clear(cacheType: .memory)
        #expect(await pair.manager.contains("b") == .disk)
        try await pair.manager.clear()
        #expect(await pair.manager.contains("b") == .notCached)
    }

    @Test func addPutsACacheFirstAndRemoveTakesItOut() throws {
        let pair = try Pair()
        defer { pair.root.remove() }
        let third = ImageCacheFixture.cache(pair.root, namespace: "third")
        pair.manager.add(third)
        #expect(pair.manager.caches.first === third && pair.manager.caches.count == 3)
        pair.manager.remove(pair.high)
        #expect(pair.manager.caches.map { ObjectIdentifier($0) } == [ObjectIdentifier(third), ObjectIdentifier(pair.low)])
    }

    @Test func aStoreErrorIsThrownAfterEveryCacheWasTried() async throws {
        let pair = try Pair()
        defer { pair.root.remove() }
        let blocker = pair.root.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let broken = ImageCache(namespace: "n", root: blocker)
        let manager = ImageCachesManager(caches: [broken, pair.low])
        manager.storePolicy = .serial
        await #expect(throws: ImageCacheError.self) {
            try await manager.store(nil, data: Data([1]), forKey: "k")
        }
        #expect(await pair.low.contains("k") == .disk)
    }
}
