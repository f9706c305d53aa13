/// A thread-safe, strict least-recently-used memory cache keyed by `String`, with a total cost limit,
/// a count limit, an optional time to live and SDWebImage's optional weak side-table.
///
/// Every operation takes one lock once; a hit relinks two indices in preallocated storage and allocates
/// nothing. When a store pushes the cache over a limit, the least recently used entries are evicted.
/// With ``MemoryCacheConfiguration/usesWeakCache`` on, an evicted value that something else still
/// holds is found again by ``value(forKey:)`` and re-inserted with its cost. Safe to use from any thread
/// or task; no method suspends or blocks on I/O.
///
/// ```swift
/// let cache = MemoryCache<Image>()           // cost = Image.memoryCost
/// cache.setValue(image, forKey: url.absoluteString)
/// let hit = cache.value(forKey: url.absoluteString)
/// cache.removeAll()                          // the memory-warning stand-in
/// ```
public final class MemoryCache<Value: AnyObject & Sendable>: Sendable {
    /// Computes an entry's cost when the caller gives none.
    public typealias CostFunction = @Sendable (Value) -> Int

    let storage: MemoryCacheStorage
    let costFunction: CostFunction

    /// Creates an empty cache.
    /// - Parameters:
    ///   - configuration: the limits and options.
    ///   - cost: the cost of a value stored without an explicit cost.
    ///   - now: the clock for ``MemoryCacheConfiguration/timeToLive``; tests inject their own.
    public init(
        configuration: MemoryCacheConfiguration = MemoryCacheConfiguration(),
        cost: @escaping CostFunction,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.storage = MemoryCacheStorage(configuration: configuration, now: now)
        self.costFunction = cost
    }

    /// The current limits and options; setting them trims the cache to the new limits at once.
    public var configuration: MemoryCacheConfiguration {
        get { storage.configuration }
        set { storage.setConfiguration(newValue) }
    }

    /// The number of entries in the LRU part (values only reachable through the weak table are not counted).
    public var count: Int { storage.count }

    /// The sum of the costs of the entries in the LRU part.
    public var totalCost: Int { storage.totalCost }

    /// The value for `key`, making it the most recently used; `nil` on a miss or when the entry has expired.
    ///
    /// On an LRU miss the weak table is checked, and a value still alive is re-inserted with its cost.
    public func value(forKey key: String) -> Value? {
        storage.value(forKey: key).map { unsafeDowncast($0, to: Value.self) }  // only Values are ever stored
    }

    /// Stores `value` for `key` as the most recently used entry, then evicts least recently used
    /// entries until the cache is within its limits.
    /// - Parameters:
    ///   - value: the value to keep.
    ///   - key: its key.
    ///   - cost: the entry's cost; `nil` asks the cost function given at creation.
    public func setValue(_ value: Value, forKey key: String, cost: Int? = nil) {
        storage.setValue(value, forKey: key, cost: max(0, cost ?? costFunction(value)))
    }

    /// Removes the entry for `key` from the LRU and the weak table; returns the value it held.
    @discardableResult
    public func removeValue(forKey key: String) -> Value? {
        storage.removeValue(forKey: key).map { unsafeDowncast($0, to: Value.self) }
    }

    /// Whether ``value(forKey:)`` would return a value now; does not change the LRU order.
    public func contains(_ key: String) -> Bool { storage.contains(key) }

    /// Empties both the LRU and the weak table (SDWebImage's `clearMemory`, and the memory-warning stand-in).
    public func removeAll() { storage.removeAll(keepingWeakReferences: false) }

    /// Empties only the LRU part; values still held elsewhere stay reachable through the weak table.
    func removeAllStrong() { storage.removeAll(keepingWeakReferences: true) }

    /// Evicts least recently used entries until the total cost is at most `cost`; the weak table is kept.
    func trim(toCost cost: Int) { storage.trim(costLimit: max(0, cost), countLimit: nil) }

    /// Evicts least recently used entries until at most `count` remain; the weak table is kept.
    func trim(toCount count: Int) { storage.trim(costLimit: nil, countLimit: max(0, count)) }

    /// Removes every entry whose time to live has passed, from the LRU and the weak table; returns how many
    /// LRU entries were removed. Expired entries are also dropped when looked up; a periodic sweep calls
    /// this to release their memory sooner.
    @discardableResult
    func removeExpired() -> Int { storage.removeExpired() }
}

extension MemoryCache where Value == Image {
    /// Creates an image cache whose cost is `Image.memoryCost`, the bytes of the pixels.
    public convenience init(
        configuration: MemoryCacheConfiguration = MemoryCacheConfiguration(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.init(configuration: configuration, cost: { $0.memoryCost }, now: now)
    }
}
