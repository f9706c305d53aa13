import Foundation

extension ImageCache {
    /// Looks `key` up: memory first, then disk.
    ///
    /// A memory hit returns without suspending and without disk I/O unless ``ImageCacheOptions/queryMemoryData``
    /// is set (then the bytes are read too and the result still reports ``ImageCacheType/memory``). A disk
    /// hit is decoded with `decoding` (on the decoding threads, not the caller's) (default ``Configuration/decodingOptions``), scaled by the key's
    /// `@2x`/`@3x`, and promoted to memory (unless `decoding` asks for a reduced image: a thumbnail, the first
    /// frame, a scale-down); a file that does not decode is removed and is a miss.
    /// Cancelling the calling task abandons the lookup and returns `nil`.
    /// - Parameters:
    ///   - key: the cache key.
    ///   - options: memory-data and synchronous-query options.
    ///   - decoding: how to decode a disk hit; `nil` uses ``Configuration/decodingOptions``.
    ///   - cacheType: where to look: ``ImageCacheType/all`` (default), memory or disk only.
    public func image(
        forKey key: String, options: ImageCacheOptions = [],
        decoding: ImageDecodingOptions? = nil, cacheType: ImageCacheType = .all
    ) async -> CacheQueryResult? {
        let decoding = decoding ?? configuration.decodingOptions
        let memoryImage = cacheType.includesMemory ? imageFromMemory(forKey: key) : nil
        if let memoryImage, !options.contains(.queryMemoryData) {
            return CacheQueryResult(image: memoryImage, cacheType: .memory)
        }
        guard cacheType.includesDisk else { return nil }
        let operation = CacheQueryOperation()
        // Only the read is queued; decoding happens here, so that disk hits decode side by side.
        let entry: DiskCacheEntry? = await withTaskCancellationHandler {
            await diskCache.run(forKey: key) { storage in operation.isCancelled ? nil : storage.entry(forKey: key) }
        } onCancel: {
            operation.cancel()
        }
        guard !Task.isCancelled else { return nil }
        if memoryImage != nil || entry == nil {
            return decodeHit(entry, key: key, decoding: decoding, memoryImage: memoryImage)
        }
        return await WorkerThreads.processing.run {
            self.decodeHit(entry, key: key, decoding: decoding, memoryImage: memoryImage)
        }
    }

    /// The callback form of ``image(forKey:options:decoding:cacheType:)``.
    ///
    /// A memory hit (without ``ImageCacheOptions/queryMemoryData``), a query that cannot reach the disk and a
    /// synchronous query (``ImageCacheOptions/queryDiskDataSync``, ``ImageCacheOptions/queryMemoryDataSync``)
    /// call `completion` before returning and return `nil`. Otherwise the lookup runs on the I/O queue,
    /// `completion` runs there, and the returned operation can cancel it: a cancelled query never calls back.
    @discardableResult
    public func queryImage(
        forKey key: String, options: ImageCacheOptions = [], decoding: ImageDecodingOptions? = nil,
        cacheType: ImageCacheType = .all, completion: @escaping @Sendable (CacheQueryResult?) -> Void
    ) -> CacheQueryOperation? {
        let decoding = decoding ?? configuration.decodingOptions
        let memoryImage = cacheType.includesMemory ? imageFromMemory(forKey: key) : nil
        if let memoryImage, !options.contains(.queryMemoryData) {
            completion(CacheQueryResult(image: memoryImage, cacheType: .memory))
            return nil
        }
        guard cacheType.includesDisk else {
            completion(nil)
            return nil
        }
        if isSynchronous(options, memoryHit: memoryImage != nil) {
            // Read and decode here, on the caller's thread, without waiting for the I/O queue: reads are
            // safe beside the queue's writes, which replace files atomically.
            completion(decodeHit(diskCache.storage.entry(forKey: key), key: key, decoding: decoding, memoryImage: memoryImage))
            return nil
        }
        let operation = CacheQueryOperation()
        diskCache.enqueue(forKey: key) { storage in
            guard !operation.isCancelled else { return }
            let entry = storage.entry(forKey: key)
            // Decode off the I/O queue, so that one large hit does not hold up the others.
            WorkerThreads.processing.submit {
                guard !operation.isCancelled else { return }
                let result = self.decodeHit(entry, key: key, decoding: decoding, memoryImage: memoryImage)
                operation.finish { completion(result) }
            }
        }
        return operation
    }

    /// The image in the memory cache for `key`, without touching the disk; `nil` when memory is off.
    public func imageFromMemory(forKey key: String) -> Image? {
        configuration.cachesImagesInMemory ? memoryCache.value(forKey: key) : nil
    }

    /// Whether the query's disk part runs synchronously (``ImageCacheOptions/queryDiskDataSync`` on a miss,
    /// ``ImageCacheOptions/queryMemoryDataSync`` on a memory hit).
    private func isSynchronous(_ options: ImageCacheOptions, memoryHit: Bool) -> Bool {
        memoryHit ? options.contains(.queryMemoryDataSync) : options.contains(.queryDiskDataSync)
    }

    /// Turns a disk entry read for `key` into a query result: with `memoryImage`, the entry only adds its
    /// bytes; otherwise it is decoded, scaled for an `@2x`/`@3x` key and promoted to memory. An entry that
    /// does not decode is a miss and is removed. Runs on any thread.
    func decodeHit(
        _ entry: DiskCacheEntry?, key: String, decoding: ImageDecodingOptions, memoryImage: Image?
    ) -> CacheQueryResult? {
        if let memoryImage {
            return CacheQueryResult(
                image: memoryImage, data: entry?.data, extendedData: entry?.extendedData, cacheType: .memory)
        }
        guard let entry else { return nil }
        guard let (image, promotes) = ImageDecodingStage(coders: coders).decodeHit(entry.data, key: key, options: decoding) else {
            removeCorrupt(entry, key: key)
            return nil
        }
        if promotes, configuration.cachesImagesInMemory { memoryCache.setValue(image, forKey: key) }
        return CacheQueryResult(image: image, data: entry.data, extendedData: entry.extendedData, cacheType: .disk)
    }

    /// Removes an entry that did not decode, on the I/O queue, unless it was replaced meanwhile; read-only
    /// directories are never touched.
    private func removeCorrupt(_ entry: DiskCacheEntry, key: String) {
        diskCache.enqueue(forKey: key) { storage in
            guard entry.url.deletingLastPathComponent().standardizedFileURL.path == storage.directory.path,
                  storage.entry(forKey: key)?.data == entry.data
            else { return }
            try? storage.remove(forKey: key)
        }
    }
}
