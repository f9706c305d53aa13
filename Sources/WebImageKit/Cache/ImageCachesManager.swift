public import Foundation

/// Several caches used as one, in priority order (SDWebImage's `SDImageCachesManager`).
///
/// Each kind of operation has its own policy: queries default to ``ImageCachesPolicy/serial`` (highest
/// priority first, first hit wins), stores to ``ImageCachesPolicy/highestOnly``, removals and clears to
/// ``ImageCachesPolicy/concurrent`` (every cache). With no caches, queries miss and the rest do nothing.
///
/// ```swift
/// let manager = ImageCachesManager(caches: [ImageCache(namespace: "hot"), ImageCache(namespace: "archive")])
/// manager.storePolicy = .serial             // write to both
/// let hit = await manager.image(forKey: key)
/// ```
public final class ImageCachesManager: ImageCaching {
    private struct State {
        var caches: [any ImageCaching]
        var queryPolicy = ImageCachesPolicy.serial
        var storePolicy = ImageCachesPolicy.highestOnly
        var removePolicy = ImageCachesPolicy.concurrent
        var clearPolicy = ImageCachesPolicy.concurrent
    }
    private let state: LockedValue<State>

    /// Creates a manager over `caches`, the first with the highest priority.
    public init(caches: [any ImageCaching] = []) {
        state = LockedValue(State(caches: caches))
    }

    /// The caches, highest priority first.
    public var caches: [any ImageCaching] { locked { $0.caches } }
    /// How queries use the caches. Default: ``ImageCachesPolicy/serial``.
    public var queryPolicy: ImageCachesPolicy {
        get { locked { $0.queryPolicy } }
        set { locked { $0.queryPolicy = newValue } }
    }
    /// Which caches stores go to (``ImageCachesPolicy/serial`` and ``ImageCachesPolicy/concurrent`` both mean all).
    /// Default: ``ImageCachesPolicy/highestOnly``.
    public var storePolicy: ImageCachesPolicy {
        get { locked { $0.storePolicy } }
        set { locked { $0.storePolicy = newValue } }
    }
    /// Which caches removals go to. Default: ``ImageCachesPolicy/concurrent`` (all).
    public var removePolicy: ImageCachesPolicy {
        get { locked { $0.removePolicy } }
        set { locked { $0.removePolicy = newValue } }
    }
    /// Which caches clears go to. Default: ``ImageCachesPolicy/concurrent`` (all).
    public var clearPolicy: ImageCachesPolicy {
        get { locked { $0.clearPolicy } }
        set { locked { $0.clearPolicy = newValue } }
    }

    /// Adds `cache` with the highest priority.
    public func add(_ cache: any ImageCaching) {
        locked { $0.caches.insert(cache, at: 0) }
    }

    /// Removes `cache` (by identity).
    public func remove(_ cache: any ImageCaching) {
        locked { $0.caches.removeAll { $0 === cache } }
    }

    /// The image in memory for `key` in the first cache, in priority order, that has it.
    public func imageFromMemory(forKey key: String) -> Image? {
        for cache in caches {
            if let image = cache.imageFromMemory(forKey: key) { return image }
        }
        return nil
    }

    /// The stored bytes of `key` from the first cache, in priority order, that has them, read on the calling thread.
    public func storedDataSynchronously(forKey key: String) -> Data? {
        for cache in caches {
            if let data = cache.storedDataSynchronously(forKey: key) { return data }
        }
        return nil
    }

    /// The stored bytes of `key`, looked up in the caches chosen by ``queryPolicy``: one after another
    /// (the first hit wins) or all at once (the first to answer with a hit wins).
    public func storedData(forKey key: String, cacheType: ImageCacheType = .disk) async -> CacheQueryResult? {
        let (caches, policy) = locked { ($0.caches, $0.queryPolicy) }
        switch policy {
        case .highestOnly, .lowestOnly, .serial:
            for cache in Self.select(caches, policy) {
                if let hit = await cache.storedData(forKey: key, cacheType: cacheType) { return hit }
                if Task.isCancelled { return nil }
            }
            return nil
        case .concurrent:
            return await withTaskGroup(of: CacheQueryResult?.self) { group in
                for cache in caches {
                    group.addTask { await cache.storedData(forKey: key, cacheType: cacheType) }
                }
                for await result in group where result != nil {
                    group.cancelAll()
                    return result
                }
                return nil
            }
        }
    }

    /// Stores into the caches chosen by ``storePolicy``; every chosen cache is tried, then the first error is thrown.
    public func store(
        _ image: Image?, data: Data? = nil, forKey key: String,
        extendedData: Data? = nil, cacheType: ImageCacheType = .all
    ) async throws {
        try await each(policy: locked { $0.storePolicy }) { cache in
            try await cache.store(image, data: data, forKey: key, extendedData: extendedData, cacheType: cacheType)
        }
    }

    /// Removes `key` from the caches chosen by ``removePolicy``.
    public func remove(forKey key: String, cacheType: ImageCacheType = .all) async throws {
        try await each(policy: locked { $0.removePolicy }) { try await $0.remove(forKey: key, cacheType: cacheType) }
    }

    /// Where `key` is, asking the caches in priority order: the first cache that has it answers.
    public func contains(_ key: String, cacheType: ImageCacheType = .all) async -> ImageCacheType {
        for cache in caches {
            let found = await cache.contains(key, cacheType: cacheType)
            if found != .notCached { return found }
        }
        return .notCached
    }

    /// Empties the caches chosen by ``clearPolicy``.
    public func clear(cacheType: ImageCacheType = .all) async throws {
        try await each(policy: locked { $0.clearPolicy }) { try await $0.clear(cacheType: cacheType) }
    }

    /// Runs `body` on the caches `policy` selects (all of them for serial and concurrent), then throws the first error.
    private func each(
        policy: ImageCachesPolicy, _ body: @escaping @Sendable (any ImageCaching) async throws -> Void
    ) async throws {
        let selected = Self.select(caches, policy)
        var firstError: (any Error)?
        if policy == .concurrent {
            await withTaskGroup(of: (any Error)?.self) { group in
                for cache in selected {
                    group.addTask {
                        do { try await body(cache); return nil } catch { return error }
                    }
                }
                for await error in group where firstError == nil { firstError = error }
            }
        } else {
            for cache in selected {
                do { try await body(cache) } catch { firstError = firstError ?? error }
            }
        }
        if let firstError { throw firstError }
    }

    private static func select(_ caches: [any ImageCaching], _ policy: ImageCachesPolicy) -> [any ImageCaching] {
        switch policy {
        case .highestOnly: caches.first.map { [$0] } ?? []
        case .lowestOnly: caches.last.map { [$0] } ?? []
        case .serial, .concurrent: caches
        }
    }

    private func locked<R>(_ body: (inout State) -> R) -> R {
        return state.withLock { state in
            return body(&state)
        }
    }
}
