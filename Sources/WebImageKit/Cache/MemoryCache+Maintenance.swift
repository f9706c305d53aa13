import Synchronization

extension MemoryCache {
    /// Removes every entry whose time to live has passed, from the LRU and the weak table; returns how many
    /// LRU entries were removed. Expired entries are also dropped lazily when looked up; call this from a
    /// periodic sweep to release their memory sooner.
    @discardableResult
    public func removeExpired() -> Int {
        let time = now()
        let expired: [Value] = state.withLock { state in
            var expired: [Value] = []
            var slot = state.list.oldestSlot
            while let current = slot {
                let node = state.list.nodes[current]
                slot = node.newer >= 0 ? node.newer : nil
                guard let expiry = node.expiry, expiry <= time else { continue }
                state.weak.remove(forKey: node.key)
                if let value = state.list.remove(at: current) { expired.append(value) }
            }
            state.weak.sweep()
            return expired
        }
        return expired.count
    }

    /// Evicts least recently used entries until the configured limits hold (0 means unlimited).
    static func evictToLimits(_ state: inout State) -> [Value] {
        let costLimit = state.configuration.totalCostLimit
        let countLimit = state.configuration.countLimit
        return evict(&state, costLimit: costLimit > 0 ? costLimit : nil, countLimit: countLimit > 0 ? countLimit : nil)
    }

    /// Evicts least recently used entries until the total cost is at most `costLimit` and the count at most
    /// `countLimit` (`nil`: no limit); returns the evicted values so the caller releases them after unlocking.
    static func evict(_ state: inout State, costLimit: Int?, countLimit: Int?) -> [Value] {
        var evicted: [Value] = []
        while let slot = state.list.oldestSlot,
              state.list.totalCost > (costLimit ?? .max) || state.list.count > (countLimit ?? .max) {
            if let value = state.list.remove(at: slot) { evicted.append(value) }
        }
        return evicted
    }
}

extension MemoryCache where Value == Image {
    /// Creates an image cache whose cost is ``Image/memoryCost``, the bytes of the pixels (SPEC IC-33, K-04).
    public convenience init(
        configuration: MemoryCacheConfiguration = MemoryCacheConfiguration(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.init(configuration: configuration, cost: { $0.memoryCost }, now: now)
    }
}
