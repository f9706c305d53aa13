
extension MemoryCacheStorage {
    func removeAll(keepingWeakReferences: Bool) {
        let released = locked { state -> Released in
            var released = Released()
            for node in state.list.nodes { if let value = node.value { released.add(value) } }
            state.list.removeAll()
            if !keepingWeakReferences { state.weak.removeAll() }
            return released
        }
        withExtendedLifetime(released) {}
    }

    /// Evicts least recently used entries beyond `costLimit`/`countLimit` (`nil`: no limit); the weak table is kept.
    func trim(costLimit: Int?, countLimit: Int?) {
        let released = locked { Self.evict(&$0, costLimit: costLimit, countLimit: countLimit) }
        withExtendedLifetime(released) {}
    }

    func removeExpired() -> Int {
        let time = now()
        let released = locked { state -> Released in
            var released = Released()
            var slot = state.list.oldestSlot
            while let current = slot {
                let node = state.list.nodes[current]
                slot = node.newer >= 0 ? node.newer : nil
                guard let expiry = node.expiry, expiry <= time else { continue }
                state.weak.remove(forKey: node.key)
                if let value = state.list.remove(at: current) { released.add(value) }
            }
            state.weak.sweep()
            return released
        }
        return released.count
    }

    /// Evicts least recently used entries until the configured limits hold (0 means unlimited).
    static func evictToLimits(_ state: inout State) -> Released {
        let costLimit = state.configuration.totalCostLimit
        let countLimit = state.configuration.countLimit
        return evict(&state, costLimit: costLimit > 0 ? costLimit : nil, countLimit: countLimit > 0 ? countLimit : nil)
    }

    /// Evicts least recently used entries until the total cost is at most `costLimit` and the count at most
    /// `countLimit` (`nil`: no limit).
    static func evict(_ state: inout State, costLimit: Int?, countLimit: Int?) -> Released {
        var released = Released()
        while let slot = state.list.oldestSlot,
              state.list.totalCost > (costLimit ?? .max) || state.list.count > (countLimit ?? .max) {
            if let value = state.list.remove(at: slot) { released.add(value) }
        }
        return released
    }
}
