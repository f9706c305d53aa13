/// The memory cache's weak side-table: key → weak reference, plus the cost and
/// expiry the entry was stored with, so an entry evicted from the LRU but still alive elsewhere can be
/// found again and re-inserted as it was.
///
/// Dead references are swept in bulk once the table has doubled since the last sweep, so the work is
/// amortised O(1) per insertion. Not thread-safe: ``MemoryCacheStorage`` keeps it behind a `LockedValue`.
struct WeakValueTable {
    /// A weak reference with the entry's bookkeeping.
    struct Entry {
        weak var value: AnyObject?
        var cost: Int
        var expiry: ContinuousClock.Instant?
    }

    private var entries: [String: Entry] = [:]
    private var sweepThreshold = 64

    /// The number of references held, alive or not yet swept.
    var count: Int { entries.count }

    /// The entry for `key` if its value is still alive.
    func entry(forKey key: String) -> Entry? {
        guard let entry = entries[key], entry.value != nil else { return nil }
        return entry
    }

    /// Whether a live value is held for `key`.
    func containsLiveValue(forKey key: String) -> Bool { entries[key]?.value != nil }

    /// Records a weak reference to `value` for `key`.
    mutating func set(_ value: AnyObject, forKey key: String, cost: Int, expiry: ContinuousClock.Instant?) {
        entries[key] = Entry(value: value, cost: cost, expiry: expiry)
        if entries.count >= sweepThreshold { sweep() }
    }

    /// Forgets the reference for `key`.
    mutating func remove(forKey key: String) {
        entries[key] = nil
    }

    /// Forgets every reference.
    mutating func removeAll() {
        entries.removeAll()
        sweepThreshold = 64
    }

    /// Drops references whose values are gone.
    mutating func sweep() {
        entries = entries.filter { $0.value.value != nil }
        sweepThreshold = max(64, entries.count * 2)
    }
}
