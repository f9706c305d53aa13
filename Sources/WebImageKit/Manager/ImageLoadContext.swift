public import Foundation
public import WebImageCore

/// Per-request overrides of what an ``ImageManager`` would otherwise use (SDWebImage's context
/// dictionary, typed). Every field is optional; `nil` means "the manager's own".
///
/// ```swift
/// var context = ImageLoadContext()
/// context.thumbnailPixelSize = PixelSize(width: 200, height: 200)
/// context.transformer = ImageTransformers.RoundCorners(radius: 16)
/// let avatar = try await ImageManager.shared.loadImage(from: url, context: context)
/// ```
public struct ImageLoadContext: Sendable {
    /// The cache to query and fill instead of ``ImageManager/cache``.
    public var cache: (any ImageCaching)?
    /// Where the original bytes of a transformed or thumbnail image go (SDWebImage's original-image
    /// cache); default: the request's cache.
    public var originalCache: (any ImageCaching)?
    /// The loader instead of ``ImageManager/loader``.
    public var loader: (any ImageLoading)?
    /// The coders that decode this request's images (downloads and disk hits).
    public var coders: ImageCodersManager?
    /// A transformer instead of ``ImageManager/Configuration/transformer``; its result is cached under
    /// `key-<transformerKey>` while the original bytes are cached once under `key`.
    public var transformer: (any ImageTransforming)?
    /// Turns the URL into a cache key instead of ``ImageManager/Configuration/cacheKeyFilter``.
    public var cacheKeyFilter: (@Sendable (URL) -> String)?
    /// Chooses the bytes written to disk instead of ``ImageManager/Configuration/cacheSerializer``.
    public var cacheSerializer: CacheSerializer?
    /// Decode a thumbnail of this size (fitted inside it unless ``thumbnailMode`` says otherwise); the
    /// thumbnail is cached under its own key, the original bytes once under the URL's key.
    public var thumbnailPixelSize: PixelSize?
    /// With ``thumbnailPixelSize``: fit inside it (the default), cover it or stretch to it.
    public var thumbnailMode: ImageDecodingOptions.ThumbnailMode?
    /// The display scale instead of the one read from an `@2x`/`@3x` key.
    public var scaleFactor: Double?
    /// Where to look before loading (default ``ImageCacheType/all``; ``ImageCacheType/notCached`` skips the cache).
    public var queryCacheType: ImageCacheType?
    /// Where to store the result (default ``ImageCacheType/all``, or memory with ``ImageLoadOptions/cacheMemoryOnly``).
    public var storeCacheType: ImageCacheType?
    /// Where to look for the original bytes of a transformed or thumbnail image (default ``ImageCacheType/disk``).
    public var originalQueryCacheType: ImageCacheType?
    /// Where to store those original bytes (default ``ImageCacheType/disk``).
    public var originalStoreCacheType: ImageCacheType?
    /// The decoding options the others start from instead of the manager's.
    public var decodingOptions: ImageDecodingOptions?

    /// Creates an empty context: everything from the manager.
    /// Creates a context; every override left out is `nil` (the manager's own).
    ///
    /// ```swift
    /// let context = ImageLoadContext(thumbnailPixelSize: PixelSize(width: 200, height: 200))
    /// ```
    public init(
        cache: (any ImageCaching)? = nil,
        originalCache: (any ImageCaching)? = nil,
        loader: (any ImageLoading)? = nil,
        coders: ImageCodersManager? = nil,
        transformer: (any ImageTransforming)? = nil,
        cacheKeyFilter: (@Sendable (URL) -> String)? = nil,
        cacheSerializer: CacheSerializer? = nil,
        thumbnailPixelSize: PixelSize? = nil,
        thumbnailMode: ImageDecodingOptions.ThumbnailMode? = nil,
        scaleFactor: Double? = nil,
        queryCacheType: ImageCacheType? = nil,
        storeCacheType: ImageCacheType? = nil,
        originalQueryCacheType: ImageCacheType? = nil,
        originalStoreCacheType: ImageCacheType? = nil,
        decodingOptions: ImageDecodingOptions? = nil
    ) {
        self.cache = cache
        self.originalCache = originalCache
        self.loader = loader
        self.coders = coders
        self.transformer = transformer
        self.cacheKeyFilter = cacheKeyFilter
        self.cacheSerializer = cacheSerializer
        self.thumbnailPixelSize = thumbnailPixelSize
        self.thumbnailMode = thumbnailMode
        self.scaleFactor = scaleFactor
        self.queryCacheType = queryCacheType
        self.storeCacheType = storeCacheType
        self.originalQueryCacheType = originalQueryCacheType
        self.originalStoreCacheType = originalStoreCacheType
        self.decodingOptions = decodingOptions
    }
}
