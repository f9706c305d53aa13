/// The list behind ``MemoryCacheStorage``: a strict least-recently-used list kept as index-linked nodes
/// in one array, with a dictionary from key to node index.
///
/// A hit (``touch(_:)``) only relinks two indices, so it allocates nothing; freed slots are reused
/// through a free list. Not thread-safe: ``MemoryCacheStorage`` keeps it behind a `LockedValue`. Values are `AnyObject`, so this
/// code is compiled once, fully optimised, whatever the cache's value type.
struct LRUList {
    /// One entry, linked to its neighbours by array index (`-1` for none).
    struct Node {
        var key: String
        var value: AnyObject?
        var cost: Int
        var expiry: ContinuousClock.Instant?
        var newer: Int
        var older: Int
    }

    private(set) var nodes: [Node] = []
    private var freeSlots: [Int] = []
    private var slots: [String: Int] = [:]
    /// The most recently used node, or -1.
    private var newest = -1
    /// The least recently used node, or -1.
    private var oldest = -1
    /// The sum of the costs of all entries.
    private(set) var totalCost = 0

    /// The number of entries.
    var count: Int { slots.count }

    /// The node index for `key`, without changing the order.
    func slot(forKey key: String) -> Int? { slots[key] }

    /// The index of the least recently used node, if any.
    var oldestSlot: Int? { oldest >= 0 ? oldest : nil }

    /// Makes the node at `slot` the most recently used one.
    mutating func touch(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    /// Inserts or replaces the entry for `key` as the most recently used one; returns the replaced value.
    @discardableResult
    mutating func insert(key: String, value: AnyObject, cost: Int, expiry: ContinuousClock.Instant?) -> AnyObject? {
        if let slot = slots[key] {
            let old = nodes[slot].value
            totalCost += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            nodes[slot].expiry = expiry
            touch(slot)
            return old
        }
        let node = Node(key: key, value: value, cost: cost, expiry: expiry, newer: -1, older: -1)
        let slot: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            slot = free
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        slots[key] = slot
        totalCost += cost
        linkAsNewest(slot)
        return nil
    }

    /// Removes the node at `slot` and returns its value.
    @discardableResult
    mutating func remove(at slot: Int) -> AnyObject? {
        unlink(slot)
        let value = nodes[slot].value
        slots[nodes[slot].key] = nil
        totalCost -= nodes[slot].cost
        nodes[slot].key = ""
        nodes[slot].value = nil
        nodes[slot].cost = 0
        nodes[slot].expiry = nil
        freeSlots.append(slot)
        return value
    }

    /// Removes every entry and releases the storage.
    mutating func removeAll() {
        nodes.removeAll()
        freeSlots.removeAll()
        slots.removeAll()
        newest = -1
        oldest = -1
        totalCost = 0
    }

    private mutating func unlink(_ slot: Int) {
        let newer = nodes[slot].newer
        let older = nodes[slot].older
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        nodes[slot].newer = -1
        nodes[slot].older = -1
    }

    private mutating func linkAsNewest(_ slot: Int) {
        nodes[slot].newer = -1
        nodes[slot].older = newest
        if newest >= 0 { nodes[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}
