/// Options of an ``ImageCache`` query (SDWebImage's `SDImageCacheOptions`).
public struct ImageCacheOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// On a memory hit, read the entry's bytes from disk as well; the result still reports ``ImageCacheType/memory``.
    public static let queryMemoryData = ImageCacheOptions(rawValue: 1 << 0)
    /// With ``queryMemoryData``: read those bytes synchronously, so the callback runs before the query returns.
    public static let queryMemoryDataSync = ImageCacheOptions(rawValue: 1 << 1)
    /// On a memory miss, run the disk lookup synchronously on the I/O queue, so the callback runs before
    /// the query returns (SDWebImage's `QueryDiskSync`).
    public static let queryDiskDataSync = ImageCacheOptions(rawValue: 1 << 2)
}
