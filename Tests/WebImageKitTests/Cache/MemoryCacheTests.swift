import Foundation
import Testing
@testable import WebImageKit
import WebImageTestSupport

@Suite struct MemoryCacheTests {
    static func cache(costLimit: Int = 0, countLimit: Int = 0, weak: Bool = true, ttl: Duration? = nil,
                      clock: TestClock = TestClock()) -> MemoryCache<Box> {
        let configuration = MemoryCacheConfiguration(
            totalCostLimit: costLimit, countLimit: countLimit, timeToLive: ttl, usesWeakCache: weak)
        return MemoryCache<Box>(configuration: configuration, cost: { _ in 1 }, now: { clock.now })
    }

    @Test func storesAndFindsValuesByKey() {
        let cache = Self.cache()
        let box = Box(1)
        cache.setValue(box, forKey: "a", cost: 10)
        #expect(cache.value(forKey: "a") === box)
        #expect(cache.value(forKey: "b") == nil)
        #expect(cache.contains("a") && !cache.contains("b"))
        #expect(cache.count == 1 && cache.totalCost == 10)
        cache.setValue(Box(2), forKey: "a", cost: 4)
        #expect(cache.value(forKey: "a")?.id == 2 && cache.count == 1 && cache.totalCost == 4)
        #expect(cache.removeValue(forKey: "a")?.id == 2)
        #expect(cache.value(forKey: "a") == nil && cache.count == 0 && cache.totalCost == 0)
    }

    @Test func countLimitEvictsTheLeastRecentlyUsedEntry_MC05() {
        let cache = Self.cache(countLimit: 3, weak: false)
        for id in 0..<3 { cache.setValue(Box(id), forKey: "\(id)") }
        _ = cache.value(forKey: "0")       // 1 is now the least recently used
        cache.setValue(Box(3), forKey: "3")
        #expect(cache.value(forKey: "1") == nil)
        #expect([0, 2, 3].allSatisfy { id in cache.value(forKey: String(id))?.id == id })
        #expect(cache.count == 3)
    }

    @Test func costLimitEvictsOldestFirstUntilWithinTheLimit_MC05_IC04() {
        let cache = Self.cache(costLimit: 100, weak: false)
        cache.setValue(Box(0), forKey: "0", cost: 40)
        cache.setValue(Box(1), forKey: "1", cost: 40)
        _ = cache.value(forKey: "0")
        cache.setValue(Box(2), forKey: "2", cost: 50)   // 130 > 100: evict 1 (LRU) → 90
        #expect(cache.value(forKey: "1") == nil && cache.totalCost == 90 && cache.count == 2)
        cache.setValue(Box(3), forKey: "3", cost: 500)  // larger than the limit: not kept
        #expect(cache.value(forKey: "3") == nil && cache.totalCost <= 100)
    }

    @Test func containsDoesNotChangeTheOrder() {
        let cache = Self.cache(countLimit: 2, weak: false)
        cache.setValue(Box(0), forKey: "0")
        cache.setValue(Box(1), forKey: "1")
        #expect(cache.contains("0"))
        cache.setValue(Box(2), forKey: "2")
        #expect(!cache.contains("0") && cache.contains("1"))
    }

    @Test func defaultCostLimitIsAFifthOfMemoryAtMost256MiB() {
        let limit = MemoryCacheConfiguration.defaultTotalCostLimit
        #expect(UInt64(limit) == min(ProcessInfo.processInfo.physicalMemory / 5, 256 << 20))
        #expect(MemoryCacheConfiguration().countLimit == 0 && MemoryCacheConfiguration().usesWeakCache)
    }

    @Test func imageCostIsTheBytesOfItsPixels_IC33() {
        let cache = MemoryCache<Image>()
        let image = Image(pixels: PixelBuffer(width: 10, height: 3, fill: .transparent))
        cache.setValue(image, forKey: "i")
        #expect(cache.totalCost == 10 * 3 * 4 && image.memoryCost == 120)
    }

    @Test func entriesPastTheirTimeToLiveAreMissesAndRemoved() {
        let clock = TestClock()
        let cache = Self.cache(weak: true, ttl: .seconds(60), clock: clock)
        let held = Box(0)
        cache.setValue(held, forKey: "a")
        clock.advance(by: .seconds(30))
        cache.setValue(Box(1), forKey: "b")
        #expect(cache.value(forKey: "a") === held && cache.contains("a"))
        clock.advance(by: .seconds(31))
        #expect(!cache.contains("a"))
        #expect(cache.value(forKey: "a") == nil)   // expired, although still held: not resurrected
        #expect(cache.count == 1 && cache.value(forKey: "b")?.id == 1)
        clock.advance(by: .seconds(30))
        #expect(cache.removeExpired() == 1 && cache.count == 0)
    }

    @Test func weakTableFindsAnEvictedValueStillInUseAndReinsertsItWithItsCost_K03_MC03() {
        let cache = Self.cache(countLimit: 1, weak: true)
        let held = Box(0)
        cache.setValue(held, forKey: "held", cost: 7)
        cache.setValue(Box(1), forKey: "other", cost: 3)   // evicts "held" from the LRU
        #expect(cache.count == 1 && cache.totalCost == 3)
        #expect(cache.contains("held"))
        #expect(cache.value(forKey: "held") === held)       // found through the weak reference
        #expect(cache.count == 1 && cache.totalCost == 7)   // re-inserted with its cost, "other" evicted
        // "other" is referenced by nothing else, so it is gone for good.
        #expect(cache.value(forKey: "other") == nil)
    }

    @Test func withoutTheWeakTableAnEvictedValueIsGone_CF04() {
        let cache = Self.cache(countLimit: 1, weak: false)
        let held = Box(0)
        cache.setValue(held, forKey: "held")
        cache.setValue(Box(1), forKey: "other")
        #expect(cache.value(forKey: "held") == nil)
        withExtendedLifetime(held) {}
    }

    @Test func removeAllClearsBothPartsButRemoveAllStrongKeepsValuesInUse_K03_IC27() {
        let cache = Self.cache()
        let held = Box(0)
        cache.setValue(held, forKey: "held")
        cache.setValue(Box(1), forKey: "free")
        cache.removeAllStrong()                          // the memory-warning path of SDMemoryCache
        #expect(cache.count == 0 && cache.totalCost == 0)
        #expect(cache.value(forKey: "held") === held && cache.value(forKey: "free") == nil)
        cache.removeAll()                                // clearMemory: both parts
        #expect(cache.value(forKey: "held") == nil && cache.count == 0)
        withExtendedLifetime(held) {}
    }

    @Test func trimAndNewLimitsEvictLeastRecentlyUsedFirst() {
        let cache = Self.cache(weak: false)
        for id in 0..<10 { cache.setValue(Box(id), forKey: "\(id)", cost: 10) }
        cache.trim(toCost: 55)
        #expect(cache.count == 5 && !cache.contains("4") && cache.contains("5"))
        cache.trim(toCount: 2)
        #expect(cache.count == 2 && cache.contains("8") && cache.contains("9"))
        var configuration = cache.configuration
        configuration.countLimit = 1
        cache.configuration = configuration
        #expect(cache.count == 1 && cache.value(forKey: "9") != nil)
    }

    @Test func manyTasksGettingSettingAndRemovingKeepTheCacheConsistent_MC04() async {
        let cache = Self.cache(costLimit: 500, countLimit: 64, weak: true)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var held: [Box] = []
                    for step in 0..<2_000 {
                        let key = "\((step * 7 + task) % 97)"
                        switch step % 5 {
                        case 0, 1:
                            let box = Box(step)
                            if step % 3 == 0 { held.append(box) }
                            cache.setValue(box, forKey: key, cost: step % 20)
                        case 2: cache.removeValue(forKey: key)
                        case 3: _ = cache.contains(key)
                        default: _ = cache.value(forKey: key)
                        }
                        if step % 500 == 0 { cache.trim(toCount: 32) }
                    }
                    withExtendedLifetime(held) {}
                }
            }
        }
        #expect(cache.count <= 64 && cache.totalCost <= 500)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
    }
}
