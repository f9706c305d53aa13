/// Where an image is, or should go, in an ``ImageCache`` (SDWebImage's `SDImageCacheType`).
///
/// As a target (store, query, remove, contains) ``all`` means both the memory and the disk cache; a query
/// result or ``ImageCache/contains(_:cacheType:)`` reports ``memory``, ``disk`` or ``notCached``.
public enum ImageCacheType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Not cached: the image had to be loaded; as a target, no cache at all. (SDWebImage's `None`, named
    /// so that `result?.cacheType == .notCached` cannot be mistaken for `Optional.none`.)
    case notCached = "none"
    /// The memory cache.
    case memory
    /// The disk cache.
    case disk
    /// Both caches (a target, never a result).
    case all

    /// Whether this target includes the memory cache.
    public var includesMemory: Bool { self == .memory || self == .all }
    /// Whether this target includes the disk cache.
    public var includesDisk: Bool { self == .disk || self == .all }
}
