/// How an ``ImageCachesManager`` spreads an operation over its caches (SDWebImage's `SDImageCachesManagerOperationPolicy`).
public enum ImageCachesPolicy: String, Sendable, Hashable, CaseIterable {
    /// Only the highest-priority cache (the first in ``ImageCachesManager/caches``).
    case highestOnly
    /// Only the lowest-priority cache (the last).
    case lowestOnly
    /// Every cache, one after another from the highest priority; a query stops at the first hit.
    case serial
    /// Every cache at once; a query returns the first hit to arrive and cancels the others.
    case concurrent
}
