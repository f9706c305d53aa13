import DequeModule
import WebImageCore

/// Which sources and results are worth writing to disk: those asked for at least `minimumUses` times among the
/// most recent `capacity` keys asked for (nginx's `proxy_cache_min_uses`; "cache on second hit" in CDNs). Most
/// of a large site's images are asked for once, and writing each of them costs a file's creation, its bytes
/// and its rename for nothing; imgproxy keeps no source at all. With `minimumUses` 1 every key is admitted.
///
/// Keys are remembered as 64-bit hashes, oldest forgotten first, so memory stays bounded (about 40 bytes a key);
/// two keys sharing a hash only means one is admitted a use early.
final class CacheAdmission: Sendable {
    let minimumUses: Int
    private let capacity: Int
    private let state = LockedValue(State())

    private struct State {
        var uses: [Int: Int] = [:]
        var order: Deque<Int> = []
    }

    init(minimumUses: Int, capacity: Int = 65_536) {
        self.minimumUses = max(1, minimumUses)
        self.capacity = max(1, capacity)
    }

    /// Counts one use of `key` and tells whether it has now been asked for at least `minimumUses` times.
    func admits(_ key: String) -> Bool {
        guard minimumUses > 1 else { return true }
        let hash = key.hashValue
        return state.withLock { state in
            if let uses = state.uses[hash] {
                state.uses[hash] = uses + 1
                return uses + 1 >= minimumUses
            }
            if state.order.count == capacity, let oldest = state.order.popFirst() {
                state.uses[oldest] = nil
            }
            state.uses[hash] = 1
            state.order.append(hash)
            return false
        }
    }
}
