public import Foundation

/// Turns an image into the bytes the disk cache stores: `(image, original bytes, key) -> bytes`
/// (SDWebImage's cache serializer). Returning `nil` falls back to the original bytes, then to encoding.
public typealias CacheSerializer = @Sendable (_ image: Image?, _ data: Data?, _ key: String) -> Data?

extension ImageCache {
    /// The options of an ``ImageCache`` (SDWebImage's `SDImageCacheConfig`).
    ///
    /// ```swift
    /// var configuration = ImageCache.Configuration()
    /// configuration.memory.totalCostLimit = 128 << 20
    /// configuration.disk.maxAge = .seconds(3 * 24 * 3600)
    /// configuration.sweepInterval = .seconds(600)
    /// let cache = ImageCache(namespace: "avatars", configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Whether images are kept in the memory cache at all (`shouldCacheImagesInMemory`). Default: `true`.
        public var cachesImagesInMemory: Bool
        /// The memory cache's limits; ``MemoryCacheConfiguration/usesWeakCache`` is `shouldUseWeakMemoryCache`.
        public var memory: MemoryCacheConfiguration
        /// The disk cache's expiry, size and read-only directories.
        public var disk: DiskCacheConfiguration
        /// How disk hits are decoded when the query gives no options. Default: `ImageDecodingOptions()`.
        public var decodingOptions: ImageDecodingOptions
        /// How images are encoded for the disk when neither a serializer nor original bytes give the bytes.
        public var encodingOptions: ImageEncodingOptions
        /// Produces the disk bytes of a store; `nil` (default) stores the original bytes or encodes the image.
        public var serializer: CacheSerializer?
        /// How often the periodic sweep runs ``ImageCache/cleanExpired()``; `nil` (default) means never.
        public var sweepInterval: Duration?
        /// Whether the disk is cleaned once when the cache is created, queued on its I/O queue ahead of any later
        /// disk operation (the stand-in for the seeds' clean at app start/termination). Default: `false`.
        public var cleansOnStart: Bool

        /// Creates a configuration; every parameter defaults to the value documented on its property.
        public init(
            cachesImagesInMemory: Bool = true,
            memory: MemoryCacheConfiguration = MemoryCacheConfiguration(),
            disk: DiskCacheConfiguration = DiskCacheConfiguration(),
            decodingOptions: ImageDecodingOptions = ImageDecodingOptions(),
            encodingOptions: ImageEncodingOptions = ImageEncodingOptions(),
            serializer: CacheSerializer? = nil,
            sweepInterval: Duration? = nil,
            cleansOnStart: Bool = false
        ) {
            self.cachesImagesInMemory = cachesImagesInMemory
            self.memory = memory
            self.disk = disk
            self.decodingOptions = decodingOptions
            self.encodingOptions = encodingOptions
            self.serializer = serializer
            self.sweepInterval = sweepInterval
            self.cleansOnStart = cleansOnStart
        }
    }
}
