import CoreMetrics

/// The manager's swift-metrics counters (issue item 7). Labels:
/// `webimagekit_memory_hits_total`, `webimagekit_disk_hits_total`, `webimagekit_downloads_total`,
/// `webimagekit_failures_total`, `webimagekit_downloaded_bytes_total` and `webimagekit_damaged_images_total`
/// (downloads decoded as far as they go despite damage, ``Image/issues``).
struct ImageManagerMetrics: Sendable {
    let memoryHits: Counter
    let diskHits: Counter
    let downloads: Counter
    let failures: Counter
    let downloadedBytes: Counter
    let damagedImages: Counter

    init(factory: any MetricsFactory) {
        memoryHits = Counter(label: "webimagekit_memory_hits_total", factory: factory)
        diskHits = Counter(label: "webimagekit_disk_hits_total", factory: factory)
        downloads = Counter(label: "webimagekit_downloads_total", factory: factory)
        failures = Counter(label: "webimagekit_failures_total", factory: factory)
        downloadedBytes = Counter(label: "webimagekit_downloaded_bytes_total", factory: factory)
        damagedImages = Counter(label: "webimagekit_damaged_images_total", factory: factory)
    }

    /// Counts a cache hit by where it was found.
    func recordHit(_ cacheType: ImageCacheType) {
        switch cacheType {
        case .memory: memoryHits.increment()
        case .disk: diskHits.increment()
        case .notCached, .all: break
        }
    }
}
