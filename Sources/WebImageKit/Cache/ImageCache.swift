public import Foundation

/// A memory cache and a disk cache used as one (SDWebImage's `SDImageCache`).
///
/// Stores go to memory at once and to disk on the disk cache's serial I/O queue. Queries look in memory
/// synchronously first; a hit never touches the disk unless ``ImageCacheOptions/queryMemoryData`` asks for
/// the bytes. On a miss the disk (main directory, then read-only ones) is read on the I/O queue, decoded with
/// the caller's decoding options, given the `@2x`/`@3x` scale of its key and promoted to memory. A file that
/// does not decode is a miss and is removed. Every method is safe from any thread or task.
///
/// ```swift
/// let cache = ImageCache.shared
/// try await cache.store(image, data: bytes, forKey: url.absoluteString)
/// if let hit = await cache.image(forKey: url.absoluteString) { use(hit.image, hit.cacheType) }
/// ```
public final class ImageCache: Sendable {
    /// The cache of the `"default"` namespace under ``DiskCache/defaultRoot(environment:)``.
    public static let shared = ImageCache(namespace: "default")

    /// The namespace: the disk directory's name under the root.
    public let namespace: String
    /// The options this cache was created with.
    public let configuration: Configuration
    /// The memory part (strict LRU, cost = pixel bytes).
    public let memoryCache: MemoryCache<Image>
    /// The disk part; its queue is the cache's I/O queue.
    public let diskCache: DiskCache
    /// The coders that decode disk hits and encode stores.
    public let coders: ImageCodersManager
    let sweeper: LockedValue<Task<Void, Never>?>
    /// The bytes of stores queued for the disk and not yet written (``diskBacklogBytes``).
    private let backlog = LockedValue(0)
    let sweepContinuation: AsyncStream<DiskCleanResult>.Continuation
    /// Yields the result of every periodic sweep (``Configuration/sweepInterval``, ``startSweeping(every:)``).
    /// Keeps only the newest unread result; meant for one consumer (tests, metrics).
    public let sweeps: AsyncStream<DiskCleanResult>

    /// Creates a cache whose disk directory is `<root>/<namespace>`.
    /// - Parameters:
    ///   - namespace: the directory name; characters outside `[A-Za-z0-9_-]` become `_`.
    ///   - root: the parent directory; `nil` is ``DiskCache/defaultRoot(environment:)``.
    ///   - configuration: the memory and disk settings.
    ///   - coders: the coders for disk hits and stores; default `ImageCodersManager.shared`.
    public init(
        namespace: String = "default",
        root: URL? = nil,
        configuration: Configuration = Configuration(),
        coders: ImageCodersManager = .shared
    ) {
        self.namespace = namespace
        self.configuration = configuration
        self.memoryCache = MemoryCache<Image>(configuration: configuration.memory)
        self.diskCache = DiskCache(namespace: namespace, root: root, configuration: configuration.disk)
        self.coders = coders
        self.sweeper = LockedValue(nil)
        (self.sweeps, self.sweepContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        if let interval = configuration.sweepInterval { startSweeping(every: interval) }
        if configuration.cleansOnStart {
            // Queued now, so it runs before any disk operation issued after init returns.
            diskCache.enqueue { storage in _ = try? storage.clean() }
        }
    }

    deinit {
        withSweeper { $0?.cancel() }
        sweepContinuation.finish()
    }

    /// Stores an image and/or its bytes for `key`.
    ///
    /// Memory gets `image` at once (when ``Configuration/cachesImagesInMemory``). The disk gets, on the I/O
    /// queue: the ``Configuration/serializer``'s bytes, else `data`, else `image` encoded as PNG when it has
    /// alpha and JPEG otherwise. With neither image nor data nothing is stored.
    /// - Parameters:
    ///   - image: the decoded image, for the memory cache (and the disk, when there are no bytes).
    ///   - data: the encoded bytes for the disk.
    ///   - key: the cache key.
    ///   - extendedData: stored beside the disk entry (for example HTTP validators).
    ///   - cacheType: ``ImageCacheType/memory``, ``ImageCacheType/disk`` or ``ImageCacheType/all`` (default).
    /// - Throws: ``ImageCacheError`` when encoding or the disk write fails; memory is stored regardless.
    public func store(
        _ image: Image?, data: Data? = nil, forKey key: String,
        extendedData: Data? = nil, cacheType: ImageCacheType = .all
    ) async throws(ImageCacheError) {
        if cacheType.includesMemory, configuration.cachesImagesInMemory, let image {
            memoryCache.setValue(image, forKey: key)
        }
        guard cacheType.includesDisk, image != nil || data != nil else { return }
        let failure: ImageCacheError? = await withCheckedContinuation { continuation in
            queueDiskStore(image, data: data, forKey: key, extendedData: extendedData) { continuation.resume(returning: $0) }
        }
        if let failure { throw failure }
    }

    /// The callback form of ``store(_:data:forKey:extendedData:cacheType:)``; `completion` runs on the
    /// I/O queue with `nil` on success (or at once when there is nothing to write to disk). `completion` has
    /// no default, so that a call without one is always the async form, whose errors are thrown.
    public func store(
        _ image: Image?, data: Data? = nil, forKey key: String, extendedData: Data? = nil,
        cacheType: ImageCacheType = .all, completion: @escaping @Sendable (ImageCacheError?) -> Void
    ) {
        if cacheType.includesMemory, configuration.cachesImagesInMemory, let image {
            memoryCache.setValue(image, forKey: key)
        }
        guard cacheType.includesDisk, image != nil || data != nil else {
            completion(nil)
            return
        }
        queueDiskStore(image, data: data, forKey: key, extendedData: extendedData, completion: completion)
    }

    /// Queues the disk part of a store, counted in ``diskBacklogBytes`` until it is written; `completion` runs on
    /// the I/O queue. Stores queued together are written as one batch (``DiskCache/storeQueued(_:)``).
    private func queueDiskStore(
        _ image: Image?, data: Data?, forKey key: String, extendedData: Data?,
        completion: @escaping @Sendable (ImageCacheError?) -> Void
    ) {
        let queued = Self.queuedBytes(image, data)
        backlog.withLock { $0 += queued }
        let store = QueuedStore(key: key, extendedData: extendedData, bytes: {
            try self.diskBytes(image: image, data: data, key: key)
        }) { failure in
            self.backlog.withLock { $0 -= queued }
            completion(failure.map { $0 as? ImageCacheError ?? ImageCacheError(.diskFailed, key: key, underlying: $0) })
        }
        diskCache.storeQueued(store)
    }

    /// The bytes of stores queued for the disk and not written yet (an image without bytes counts its pixels'
    /// bytes): how far the disk runs behind.
    public var diskBacklogBytes: Int { backlog.withLock { $0 } }

    /// What a store of `image` and `data` adds to the backlog.
    private static func queuedBytes(_ image: Image?, _ data: Data?) -> Int {
        data?.count ?? image.map { $0.pixelSize.pixelCount * 4 } ?? 0
    }

    /// The bytes a store writes to disk: the ``Configuration/serializer``'s, else `data`, else `image` encoded;
    /// `nil` when there is nothing to write. Runs on the I/O queue.
    func diskBytes(image: Image?, data: Data?, key: String) throws(ImageCacheError) -> Data? {
        if let bytes = configuration.serializer?(image, data, key) ?? data { return bytes }
        guard let image else { return nil }
        do {
            return try coders.encode(image, as: .unknown, options: configuration.encodingOptions)
        } catch {
            throw ImageCacheError(.encodingFailed, key: key, underlying: error)
        }
    }
}
