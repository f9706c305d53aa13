extension ImageCache {
    /// Removes `key` from memory and/or the main disk directory (IC-26, K-08); read-only directories are kept.
    public func remove(forKey key: String, cacheType: ImageCacheType = .all) async throws(DiskCacheError) {
        if cacheType.includesMemory { memoryCache.removeValue(forKey: key) }
        if cacheType.includesDisk { try await diskCache.remove(forKey: key) }
    }

    /// Where `key` is cached: ``ImageCacheType/memory`` when in memory, else ``ImageCacheType/disk`` when on
    /// disk (main or read-only directories, with the extension fallback, IC-24/IC-25), else ``ImageCacheType/none``.
    public func contains(_ key: String, cacheType: ImageCacheType = .all) async -> ImageCacheType {
        if cacheType.includesMemory, configuration.cachesImagesInMemory, memoryCache.contains(key) { return .memory }
        if cacheType.includesDisk, await diskCache.contains(key) { return .disk }
        return .notCached
    }

    /// Empties the memory cache, its weak table included (IC-27, the memory-warning stand-in).
    public func clearMemory() {
        memoryCache.removeAll()
    }

    /// Deletes every disk entry and recreates the directory (IC-28, K-08).
    public func clearDisk() async throws(DiskCacheError) {
        try await diskCache.clear()
    }

    /// Empties memory and/or disk.
    public func clear(cacheType: ImageCacheType = .all) async throws(DiskCacheError) {
        if cacheType.includesMemory { clearMemory() }
        if cacheType.includesDisk { try await clearDisk() }
    }

    /// Removes expired disk entries, then trims by size to half of the maximum (IC-29, DC-06, DC-07).
    @discardableResult
    public func cleanDisk() async throws(DiskCacheError) -> DiskCleanResult {
        try await diskCache.clean()
    }

    /// The bytes the disk entries take (IC-30).
    public func totalDiskSize() async throws(DiskCacheError) -> Int {
        try await diskCache.totalSize()
    }

    /// The number of disk entries (IC-30).
    public func diskCount() async throws(DiskCacheError) -> Int {
        try await diskCache.count()
    }
}

extension ImageCache {
    /// Waits until every disk operation queued before this call (stores, removals, cleans; the manager's
    /// background stores included) has finished: for tests and short-lived processes, instead of polling.
    ///
    /// ```swift
    /// _ = try await manager.loadImage(from: url)   // stores to disk in the background
    /// await ImageCache.shared.flush()              // now the entry is on disk
    /// ```
    public func flush() async {
        await diskCache.run { _ in }
    }
}
