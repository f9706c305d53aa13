public import Foundation

/// What an ``ImageCache`` query found: the image, its bytes when read, and where it was found.
public struct CacheQueryResult: Sendable {
    /// The image; `nil` only when the disk bytes exist but were not decoded (never for a hit from a query).
    public var image: Image?
    /// The stored bytes, when the disk was read (a disk hit, or a memory hit with ``ImageCacheOptions/queryMemoryData``).
    public var data: Data?
    /// The extended data stored with the disk entry (for example HTTP validators), when the disk was read.
    public var extendedData: Data?
    /// ``ImageCacheType/memory`` or ``ImageCacheType/disk``.
    public var cacheType: ImageCacheType
    /// When the disk entry was stored (or last found current by a revalidation); nil when not known.
    package var storedDate: Date?

    /// Creates a result.
    public init(image: Image?, data: Data? = nil, extendedData: Data? = nil, cacheType: ImageCacheType) {
        self.image = image
        self.data = data
        self.extendedData = extendedData
        self.cacheType = cacheType
    }
}
