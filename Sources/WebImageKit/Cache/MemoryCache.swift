import Synchronization

/// A thread-safe, strict least-recently-used memory cache keyed by `String`, with a total cost limit,
/// a count limit, an optional time to live and SDWebImage's optional weak side-table (SPEC MC-01…MC-05, K-03).
///
/// Every operation takes one `Mutex`; a hit relinks two indices in preallocated storage and allocates
/// nothing. When a store pushes the cache over a limit, the least recently used entries are evicted.
/// With ``MemoryCacheConfiguration/usesWeakCache`` on, an evicted value that something else still
/// holds is found again by ``value(forKey:)`` and re-inserted with its cost.
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

    struct State {
        var configuration: MemoryCacheConfiguration
        var list = LRUList<Value>()
        var weak = WeakValueTable<Value>()
    }

    let state: Mutex<State>
    let costFunction: CostFunction
    let now: @Sendable () -> ContinuousClock.Instant

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
        self.state = Mutex(State(configuration: configuration))
        self.costFunction = cost
        self.now = now
    }

    /// The current limits and options; setting them trims the cache to the new limits at once.
    public var configuration: MemoryCacheConfiguration {
        get { state.withLock { $0.configuration } }
        set {
            let evicted = state.withLock { state in
                state.configuration = newValue
                if !newValue.usesWeakCache { state.weak.removeAll() }
                return Self.evictToLimits(&state)
            }
            withExtendedLifetime(evicted) {}
        }
    }

    /// The number of entries in the LRU part (values only reachable through the weak table are not counted).
    public var count: Int { state.withLock { $0.list.count } }

    /// The sum of the costs of the entries in the LRU part.
    public var totalCost: Int { state.withLock { $0.list.totalCost } }

    /// The value for `key`, making it the most recently used; `nil` on a miss or when the entry has expired.
    ///
    /// On an LRU miss the weak table is checked, and a value still alive is re-inserted with its cost.
    public func value(forKey key: String) -> Value? {
        state.withLock { state in
            if let slot = state.list.slot(forKey: key) {
                if let expiry = state.list.nodes[slot].expiry, expiry <= now() {
                    state.list.remove(at: slot)
                    state.weak.remove(forKey: key)
                    return nil
                }
                state.list.touch(slot)
                return state.list.nodes[slot].value
            }
            guard state.configuration.usesWeakCache, let entry = state.weak.entry(forKey: key),
                  let value = entry.value else { return nil }
            if let expiry = entry.expiry, expiry <= now() {
                state.weak.remove(forKey: key)
                return nil
            }
            state.list.insert(key: key, value: value, cost: entry.cost, expiry: entry.expiry)
            let evicted = Self.evictToLimits(&state)
            withExtendedLifetime(evicted) {}
            return value
        }
    }

    /// Stores `value` for `key` as the most recently used entry, then evicts least recently used
    /// entries until the cache is within its limits.
    /// - Parameter cost: the entry's cost; `nil` asks the cost function given at creation.
    public func setValue(_ value: Value, forKey key: String, cost: Int? = nil) {
        let cost = max(0, cost ?? costFunction(value))
        let released: (Value?, [Value]) = state.withLock { state in
            let expiry = state.configuration.timeToLive.map { now() + $0 }
            let replaced = state.list.insert(key: key, value: value, cost: cost, expiry: expiry)
            if state.configuration.usesWeakCache {
                state.weak.set(value, forKey: key, cost: cost, expiry: expiry)
            }
            return (replaced, Self.evictToLimits(&state))
        }
        withExtendedLifetime(released) {}
    }

    /// Removes the entry for `key` from the LRU and the weak table; returns the value it held.
    @discardableResult
    public func removeValue(forKey key: String) -> Value? {
        state.withLock { state in
            state.weak.remove(forKey: key)
            guard let slot = state.list.slot(forKey: key) else { return nil }
            return state.list.remove(at: slot)
        }
    }

    /// Whether ``value(forKey:)`` would return a value now; does not change the LRU order.
    public func contains(_ key: String) -> Bool {
        let time = now()
        return state.withLock { state in
            if let slot = state.list.slot(forKey: key) {
                guard let expiry = state.list.nodes[slot].expiry else { return true }
                return expiry > time
            }
            guard state.configuration.usesWeakCache, let entry = state.weak.entry(forKey: key) else { return false }
            return entry.expiry.map { $0 > time } ?? true
        }
    }

    /// Empties both the LRU and the weak table (SDWebImage's `clearMemory`, and the memory-warning stand-in).
    public func removeAll() {
        state.withLock { state in
            state.list.removeAll()
            state.weak.removeAll()
        }
    }

    /// Empties only the LRU part; values still held elsewhere stay reachable through the weak table (K-03).
    public func removeAllStrong() {
        state.withLock { $0.list.removeAll() }
    }

    /// Evicts least recently used entries until the total cost is at most `cost`; the weak table is kept.
    public func trim(toCost cost: Int) {
        let evicted = state.withLock { Self.evict(&$0, costLimit: max(0, cost), countLimit: nil) }
        withExtendedLifetime(evicted) {}
    }

    /// Evicts least recently used entries until at most `count` remain; the weak table is kept.
    public func trim(toCount count: Int) {
        let evicted = state.withLock { Self.evict(&$0, costLimit: nil, countLimit: max(0, count)) }
        withExtendedLifetime(evicted) {}
    }
}
