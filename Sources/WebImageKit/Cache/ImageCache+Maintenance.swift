extension ImageCache {
    /// Removes `key` from memory and/or the main disk directory; read-only directories are kept.
    public func remove(forKey key: String, cacheType: ImageCacheType = .all) async throws(DiskCacheError) {
        if cacheType.includesMemory { memoryCache.removeValue(forKey: key) }
        if cacheType.includesDisk { try await diskCache.remove(forKey: key) }
    }

    /// Where `key` is cached: ``ImageCacheType/memory`` when in memory, else ``ImageCacheType/disk`` when on
    /// disk (main or read-only directories, with the extension fallback), else ``ImageCacheType/notCached``.
    public func contains(_ key: String, cacheType: ImageCacheType = .all) async -> ImageCacheType {
        if cacheType.includesMemory, configuration.cachesImagesInMemory, memoryCache.contains(key) { return .memory }
        if cacheType.includesDisk, await diskCache.contains(key) { return .disk }
        return .notCached
    }

    /// Empties the memory cache, its weak table included; users call `clear(cacheType: .memory)`.
    package func clearMemory() {
        memoryCache.removeAll()
    }

    /// Frees the memory cache under memory pressure, as SDWebImage does on a memory warning:
    /// every entry leaves the LRU, so its bytes no longer count against the limit; with
    /// ``MemoryCacheConfiguration/usesWeakCache`` an image still in use elsewhere stays findable through the
    /// weak table, since freeing it would gain nothing. The disk is untouched. Call it from your own memory
    /// signal, or let a ``MemoryPressureWatcher`` call it.
    public func trimMemory() {
        memoryCache.removeAllStrong()
    }

    /// Empties memory and/or disk: on disk, every entry is deleted and the directory recreated.
    public func clear(cacheType: ImageCacheType = .all) async throws(DiskCacheError) {
        if cacheType.includesMemory { clearMemory() }
        if cacheType.includesDisk { try await diskCache.clear() }
    }
}

extension ImageCache {
    /// Waits until every disk operation queued before this call (stores, removals, cleans; the manager's
    /// background stores included) has finished: for tests and short-lived processes, instead of polling.
    ///
    /// ```swift
    /// _ = try await manager.loadImage(from: url)   // stores to disk in the background
    /// await ImageCache.shared.flush()              // now the entry is in its file
    /// ```
    public func flush() async {
        await diskCache.run { _ in }
    }
}
