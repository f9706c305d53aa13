public import Foundation
public import Logging
public import CoreMetrics
public import WebImageCore

/// Joins a cache and a loader into one image pipeline (SDWebImage's `SDWebImageManager`).
///
/// A load looks in the memory cache synchronously, then on disk, then loads through the loader (the
/// HTTP downloader, `file:` and `data:` by default), transforms, stores and delivers. Simultaneous
/// loads of the same image share all of it: one query, one download, one decode, one transform.
/// URLs that failed permanently go on a failed-URL list and fail at once until retried.
///
/// ```swift
/// let result = try await ImageManager.shared.loadImage(from: url)
/// print(result.image.pixelSize, result.cacheType)       // .notCached the first time, .memory after
///
/// let operation = manager.loadImage(with: url) { result in … }   // callback form
/// operation.cancel()                                          // the completion will not be called
/// ```
public final class ImageManager: Sendable {
    /// Settings fixed at creation: the seeds' manager properties and default decoding.
    public struct Configuration: Sendable {
        /// Turns a URL into a cache key; default: the URL's absolute string.
        public var cacheKeyFilter: (@Sendable (URL) -> String)?
        /// Chooses the bytes written to disk for a downloaded image; `nil` stores the downloaded
        /// bytes, and a serializer returning `nil` makes the cache encode the image.
        public var cacheSerializer: CacheSerializer?
        /// Applied to every downloaded image unless a request's context names another.
        public var transformer: (any ImageTransforming)?
        /// The decoding options every load starts from.
        public var decodingOptions: ImageDecodingOptions
        /// The coders that decode everything this manager loads, from the network, from disk and from cached
        /// originals (a request's ``ImageLoadContext/coders`` overrides them); the one place to register a coder.
        public var coders: ImageCodersManager
        /// With ``ImageLoadOptions/progressiveLoad``: after a partial image, the next waits at least this long
        /// (default 100 ms). The first is shown as soon as something is decodable.
        public var minimumProgressiveInterval: Duration
        /// How long original bytes on disk are used as they are; past it, the next load that reads them asks
        /// the loader again with their `ETag`/`Last-Modified` first (a 304 keeps them, new bytes replace them, a
        /// failure keeps them). `nil` (the default, as SDWebImage): never; ``ImageLoadOptions/refreshCached``
        /// asks every time. Only originals are revalidated: images already decoded in memory, and thumbnails or
        /// transformed images stored under keys of their own, are used as they are.
        public var revalidationInterval: Duration?

        /// Creates a configuration; the defaults keep URLs as keys, store downloaded bytes, transform nothing
        /// and decode with every built-in coder.
        public init(
            cacheKeyFilter: (@Sendable (URL) -> String)? = nil,
            cacheSerializer: CacheSerializer? = nil,
            transformer: (any ImageTransforming)? = nil,
            decodingOptions: ImageDecodingOptions = ImageDecodingOptions(),
            coders: ImageCodersManager = .shared,
            minimumProgressiveInterval: Duration = .milliseconds(100),
            revalidationInterval: Duration? = nil
        ) {
            self.cacheKeyFilter = cacheKeyFilter
            self.cacheSerializer = cacheSerializer
            self.transformer = transformer
            self.decodingOptions = decodingOptions
            self.coders = coders
            self.minimumProgressiveInterval = minimumProgressiveInterval
            self.revalidationInterval = revalidationInterval
        }
    }

    /// The manager of code that does not make its own: at first use, one over ``ImageCache/shared`` and the
    /// default loaders. Replace it to configure it, best before anything uses it; loads
    /// already started finish on the manager they started on.
    ///
    /// ```swift
    /// ImageManager.shared = ImageManager(configuration: .init(transformer: ResizeTransformer(width: 256, height: 256)))
    /// ```
    public static var shared: ImageManager {
        get { sharedManager.withLock { $0 } }
        set { sharedManager.withLock { $0 = newValue } }
    }

    private static let sharedManager = LockedValue(ImageManager())

    /// The loaders used when none is given: `file:`, `data:`, and ``ImageDownloader/shared`` for HTTP(S).
    static var defaultLoader: any ImageLoading {
        ImageLoaderRegistry(loaders: [FileImageLoader(), DataURLImageLoader(), ImageDownloader.shared])
    }

    /// The cache queried and filled.
    public let cache: any ImageCaching
    /// The loader that fetches what the cache lacks.
    public let loader: any ImageLoading
    /// The settings this manager was created with.
    public let configuration: Configuration
    let logger: Logger
    let metrics: ImageManagerMetrics
    let state = LockedValue(ImageManagerState())
    let sharedLoads = SharedLoads()
    /// Holds loads back before their download while too many downloaded bytes wait for decoding.
    let decodeBacklog = DecodeBacklog()

    /// Creates a manager.
    /// - Parameters:
    ///   - cache: Where images are looked up and stored; default ``ImageCache/shared``.
    ///   - loader: What fetches the misses; default: `file:` and `data:` URLs read locally, HTTP(S) through ``ImageDownloader/shared``.
    ///   - configuration: Key filter, serializer, default transformer and decoding.
    ///   - logger: Receives one debug line per load (key, source, bytes, time).
    ///   - metricsFactory: Where the counters go; default the process-wide `MetricsSystem.factory`.
    public init(
        cache: any ImageCaching = ImageCache.shared,
        loader: (any ImageLoading)? = nil,
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "WebImageKit.ImageManager"),
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.cache = cache
        self.loader = loader ?? Self.defaultLoader
        self.configuration = configuration
        self.logger = logger
        self.metrics = ImageManagerMetrics(factory: metricsFactory ?? MetricsSystem.factory)
    }

    /// Receives the manager's decisions; held weakly.
    public var delegate: (any ImageManagerDelegate)? {
        get { state.withLock { $0.delegate.value } }
        set { state.withLock { $0.delegate = WeakDelegate(value: newValue) } }
    }

    /// The cache key of `url`: the configured filter's result, else its absolute string; `""` for `nil`.
    public func cacheKey(for url: URL?) -> String {
        guard let url else { return "" }
        return configuration.cacheKeyFilter?(url) ?? url.absoluteString
    }

    /// Whether any load is running.
    public var isRunning: Bool { sharedLoads.listenerCount > 0 }

    /// The number of loads running.
    var runningCount: Int { sharedLoads.listenerCount }

    /// Cancels every running load: none of them will complete.
    public func cancelAll() {
        sharedLoads.cancelAll()
    }

    /// The URLs on the failed-URL list.
    public var failedURLs: Set<URL> { state.withLock { $0.failedURLs } }

    /// Takes `url` off the failed-URL list.
    public func removeFailedURL(_ url: URL) {
        _ = state.withLock { $0.failedURLs.remove(url) }
    }

    /// Empties the failed-URL list.
    public func removeAllFailedURLs() {
        state.withLock { $0.failedURLs.removeAll() }
    }

    /// Stores `image` under `url`'s key in memory and on disk.
    public func saveImageToCache(_ image: Image, for url: URL) async throws {
        try await cache.store(image, data: image.data, forKey: cacheKey(for: url), extendedData: nil, cacheType: .all)
    }

    /// Where `url`'s image is cached: memory, disk or none. Whether it is on disk is
    /// `cache.contains(cacheKey(for: url), cacheType: .disk) == .disk`.
    public func cachedImageExists(for url: URL) async -> ImageCacheType {
        await cache.contains(cacheKey(for: url), cacheType: .all)
    }
}

/// A weak reference to the delegate, so that the manager's state stays a value.
struct WeakDelegate: Sendable {
    weak var value: (any ImageManagerDelegate)?
}

/// What the manager shares between threads.
struct ImageManagerState: Sendable {
    var delegate = WeakDelegate(value: nil)
    var failedURLs: Set<URL> = []
}
