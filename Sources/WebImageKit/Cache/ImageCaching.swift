public import Foundation

/// A cache the image pipeline can query and fill: ``ImageCache`` is the default implementation, and
/// ``ImageCachesManager`` combines several (SDWebImage's `SDImageCache` protocol).
///
/// A cache keeps images in memory and bytes on disk; it does not decode for the pipeline: ``ImageManager``
/// reads the bytes (``storedData(forKey:cacheType:)``) and decodes them in its one decode stage.
///
/// Threading contract: every method may be called from any task concurrently; none blocks the caller's
/// thread on I/O. `cacheType` selects the parts of the cache a call targets (``ImageCacheType/all``: every part).
public protocol ImageCaching: AnyObject, Sendable {
    /// The image in memory for `key`, synchronously, without touching the disk; `nil` on a miss or for a
    /// cache without a memory part (the default). The manager's fast path uses it.
    func imageFromMemory(forKey key: String) -> Image?

    /// The stored bytes of `key` and their extended data, without decoding (``CacheQueryResult/image`` is
    /// `nil`); `nil` when no part selected by `cacheType` holds bytes for it. The manager decodes disk hits
    /// from these, and derives new thumbnails and transforms from an original it already has.
    func storedData(forKey key: String, cacheType: ImageCacheType) async -> CacheQueryResult?

    /// The stored bytes of `key` read on the calling thread, for a caller that asked for a synchronous answer
    /// (``ImageLoadOptions/queryDiskDataSync``); `nil` on a miss or for a cache that cannot (the default).
    func storedDataSynchronously(forKey key: String) -> Data?

    /// Stores an image and/or its encoded bytes (and optional extended data) for `key`.
    func store(
        _ image: Image?, data: Data?, forKey key: String, extendedData: Data?, cacheType: ImageCacheType
    ) async throws

    /// Starts storing like ``store(_:data:forKey:extendedData:cacheType:)`` without waiting for it; `completion`
    /// gets the error, if any. The default runs the store in a task; ``ImageCache`` queues its disk write before
    /// returning, so that ``ImageCache/flush()`` waits for it.
    func storeInBackground(
        _ image: Image?, data: Data?, forKey key: String, extendedData: Data?, cacheType: ImageCacheType,
        completion: @escaping @Sendable ((any Error)?) -> Void
    )

    /// Removes `key`.
    func remove(forKey key: String, cacheType: ImageCacheType) async throws

    /// Where `key` is cached: ``ImageCacheType/memory``, ``ImageCacheType/disk`` or ``ImageCacheType/notCached``.
    func contains(_ key: String, cacheType: ImageCacheType) async -> ImageCacheType

    /// Empties the targeted parts.
    func clear(cacheType: ImageCacheType) async throws
}

extension ImageCaching {
    /// Runs ``ImageCaching/store(_:data:forKey:extendedData:cacheType:)`` in a task and reports its error.
    public func storeInBackground(
        _ image: Image?, data: Data?, forKey key: String, extendedData: Data?, cacheType: ImageCacheType,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        Task {
            do {
                try await store(image, data: data, forKey: key, extendedData: extendedData, cacheType: cacheType)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// No memory part by default: always `nil`.
    public func imageFromMemory(forKey key: String) -> Image? { nil }
    /// No synchronous reads by default: always `nil`.
    public func storedDataSynchronously(forKey key: String) -> Data? { nil }
}

extension ImageCache: ImageCaching {
    /// Queues the disk write before returning (the callback form of ``store(_:data:forKey:extendedData:cacheType:)``).
    public func storeInBackground(
        _ image: Image?, data: Data?, forKey key: String, extendedData: Data?, cacheType: ImageCacheType,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        store(image, data: data, forKey: key, extendedData: extendedData, cacheType: cacheType) { completion($0) }
    }

    /// The disk entry's bytes, read on the calling thread (safe beside the I/O queue's atomic writes).
    public func storedDataSynchronously(forKey key: String) -> Data? {
        diskCache.storage.data(forKey: key)
    }

    /// The disk entry's bytes and extended data (the memory cache keeps no bytes).
    public func storedData(forKey key: String, cacheType: ImageCacheType = .disk) async -> CacheQueryResult? {
        guard cacheType.includesDisk, let entry = await diskCache.entry(forKey: key) else { return nil }
        var result = CacheQueryResult(image: nil, data: entry.data, extendedData: entry.extendedData, cacheType: .disk)
        result.storedDate = entry.modificationDate
        return result
    }
}
