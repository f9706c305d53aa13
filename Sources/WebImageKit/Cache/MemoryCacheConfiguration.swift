import Foundation

/// The limits and options of a ``MemoryCache``.
///
/// ```swift
/// var configuration = MemoryCacheConfiguration()
/// configuration.totalCostLimit = 64 << 20      // 64 MiB of pixels
/// configuration.timeToLive = .seconds(300)
/// let cache = MemoryCache<Image>(configuration: configuration)
/// ```
public struct MemoryCacheConfiguration: Sendable, Equatable {
    /// The most the costs of all entries may add up to (bytes of pixels for images); 0 means unlimited.
    ///
    /// Default: 20% of the memory the machine or container allows, at most 256 MiB.
    public var totalCostLimit: Int
    /// The most entries the cache holds; 0 means unlimited (NSCache's convention). Default: 0.
    public var countLimit: Int
    /// How long an entry stays valid after it was stored; past it, the entry is a miss and is removed.
    /// `nil` (the default) means entries never expire.
    public var timeToLive: Duration?
    /// Whether values are also referenced weakly, so one evicted by the limits but still in use elsewhere
    /// is found again and re-inserted (SDWebImage's `shouldUseWeakMemoryCache`, default `true`).
    public var usesWeakCache: Bool

    /// Creates a configuration; every parameter defaults to the value documented on its property.
    public init(
        totalCostLimit: Int = MemoryCacheConfiguration.defaultTotalCostLimit,
        countLimit: Int = 0,
        timeToLive: Duration? = nil,
        usesWeakCache: Bool = true
    ) {
        self.totalCostLimit = totalCostLimit
        self.countLimit = countLimit
        self.timeToLive = timeToLive
        self.usesWeakCache = usesWeakCache
    }

    /// The default cost limit: 20% of the memory this process may use, at most 256 MiB: about 23 decoded
    /// 2048×1365 photos, or a thousand 256×256 thumbnails. In a container with a memory limit lower than the
    /// machine's memory (cgroup v2 `memory.max`, or v1 `memory.limit_in_bytes`, read once), 20% of that limit.
    /// A library shares its process, often a server's, with other work: raise it when the images are what the
    /// process is for, and see ``ImageCache/trimMemory()`` for memory pressure.
    @usableFromInline package static var defaultTotalCostLimit: Int {
        ContainerMemory.defaultCostLimit(
            physicalMemory: ProcessInfo.processInfo.physicalMemory, containerLimit: ContainerMemory.limit)
    }
}
