
/// The locked state of a ``MemoryCache``: the LRU list, the weak table and the limits, holding values as
/// `AnyObject` so this code is compiled once, fully specialised, whatever the cache's value type
/// (unspecialised generic code would cost runtime metadata work on every hit).
///
/// Every method takes the one `LockedValue` lock once. Values released by an operation (evicted, replaced) are
/// returned out of the lock, so their deinitialisers never run while it is held.
final class MemoryCacheStorage: Sendable {
    struct State {
        var configuration: MemoryCacheConfiguration
        var list = LRUList()
        var weak = WeakValueTable()
    }

    /// Values leaving the cache, released by the caller after unlocking; the first two need no allocation.
    struct Released: @unchecked Sendable {  // only ever dropped, never used
        var first: AnyObject?
        var second: AnyObject?
        var more: [AnyObject] = []
        var count = 0

        init() {}

        init(_ value: AnyObject?) { if let value { add(value) } }

        mutating func add(_ value: AnyObject) {
            count += 1
            if first == nil { first = value } else if second == nil { second = value } else { more.append(value) }
        }
    }

    /// A value handed out of the lock; the public wrapper only stores `Sendable` values.
    struct Found: @unchecked Sendable {
        var value: AnyObject?
    }

    let state: LockedValue<State>
    let now: @Sendable () -> ContinuousClock.Instant

    init(configuration: MemoryCacheConfiguration, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.state = LockedValue(State(configuration: configuration))
        self.now = now
    }

    var configuration: MemoryCacheConfiguration {
        locked { $0.configuration }
    }

    func setConfiguration(_ configuration: MemoryCacheConfiguration) {
        let released = locked { state in
            state.configuration = configuration
            if !configuration.usesWeakCache { state.weak.removeAll() }
            return Self.evictToLimits(&state)
        }
        withExtendedLifetime(released) {}
    }

    /// Runs `body` with the state locked.
    @inline(__always)
    func locked<R: Sendable>(_ body: (inout State) -> R) -> R {
        state.withLock(body)
    }

    var count: Int { locked { $0.list.count } }
    var totalCost: Int { locked { $0.list.totalCost } }

    func value(forKey key: String) -> AnyObject? {
        let (found, released) = locked { state -> (Found, Released) in
            if let slot = state.list.slot(forKey: key) {
                if let expiry = state.list.nodes[slot].expiry, expiry <= now() {
                    let value = state.list.remove(at: slot)
                    state.weak.remove(forKey: key)
                    return (Found(), Released(value))
                }
                state.list.touch(slot)
                return (Found(value: state.list.nodes[slot].value), Released())
            }
            guard state.configuration.usesWeakCache, let entry = state.weak.entry(forKey: key),
                  let value = entry.value else { return (Found(), Released()) }
            if let expiry = entry.expiry, expiry <= now() {
                state.weak.remove(forKey: key)
                return (Found(), Released())
            }
            state.list.insert(key: key, value: value, cost: entry.cost, expiry: entry.expiry)
            return (Found(value: value), Self.evictToLimits(&state))
        }
        withExtendedLifetime(released) {}
        return found.value
    }

    func setValue(_ newValue: AnyObject, forKey key: String, cost: Int) {
        let boxed = Found(value: newValue)  // the public wrapper only stores Sendable values
        let released = locked { state -> Released in
            guard let value = boxed.value else { return Released() }
            let expiry = state.configuration.timeToLive.map { now() + $0 }
            let replaced = state.list.insert(key: key, value: value, cost: cost, expiry: expiry)
            if state.configuration.usesWeakCache {
                state.weak.set(value, forKey: key, cost: cost, expiry: expiry)
            }
            var released = Self.evictToLimits(&state)
            if let replaced { released.add(replaced) }
            return released
        }
        withExtendedLifetime(released) {}
    }

    func removeValue(forKey key: String) -> AnyObject? {
        let found = locked { state -> Found in
            state.weak.remove(forKey: key)
            guard let slot = state.list.slot(forKey: key) else { return Found() }
            return Found(value: state.list.remove(at: slot))
        }
        return found.value
    }

    func contains(_ key: String) -> Bool {
        let time = now()
        return locked { state in
            if let slot = state.list.slot(forKey: key) {
                guard let expiry = state.list.nodes[slot].expiry else { return true }
                return expiry > time
            }
            guard state.configuration.usesWeakCache, let entry = state.weak.entry(forKey: key) else { return false }
            return entry.expiry.map { $0 > time } ?? true
        }
    }
}
