/// How ``ImageManager`` loads one image (SDWebImage's `SDWebImageOptions`).
///
/// Options that only steer how a target shows the result (``delayPlaceholder``, ``avoidAutoSetImage``,
/// ``forceTransition``) are read by ``ImageTarget`` binding; the manager ignores them.
public struct ImageLoadOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int

    /// Creates options from their raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Load even a URL on the failed-URL list; a success takes it off the list.
    public static let retryFailed = ImageLoadOptions(rawValue: 1 << 0)
    /// Download at low priority: queued behind normal and high downloads.
    public static let lowPriority = ImageLoadOptions(rawValue: 1 << 1)
    /// Cache the result in memory only, not on disk; the same as a store cache type of `.memory`.
    public static let cacheMemoryOnly = ImageLoadOptions(rawValue: 1 << 2)
    /// Deliver partial images while downloading, with `isFinished == false`. They are never cached.
    public static let progressiveLoad = ImageLoadOptions(rawValue: 1 << 3)
    /// Deliver the cached image first, then revalidate it with its stored ETag/Last-Modified: unchanged
    /// means no second result; changed means a second result with the new image.
    public static let refreshCached = ImageLoadOptions(rawValue: 1 << 4)
    /// Send and keep cookies with the downloader's cookie jar.
    public static let handleCookies = ImageLoadOptions(rawValue: 1 << 6)
    /// Skip TLS certificate verification for this request only; for tests.
    public static let allowInvalidSSLCertificates = ImageLoadOptions(rawValue: 1 << 7)
    /// Download ahead of normal-priority requests.
    public static let highPriority = ImageLoadOptions(rawValue: 1 << 8)
    /// Binding: show the placeholder only if the load fails, not while it runs.
    public static let delayPlaceholder = ImageLoadOptions(rawValue: 1 << 9)
    /// Run transformers and the delegate's transform on animated images too; without it an
    /// animated image is delivered and cached untransformed.
    public static let transformAnimatedImage = ImageLoadOptions(rawValue: 1 << 10)
    /// Binding: hand the result to the completion only, without setting it on the target.
    public static let avoidAutoSetImage = ImageLoadOptions(rawValue: 1 << 11)
    /// Decode images larger than 60 MB of pixels scaled down to fit that budget.
    public static let scaleDownLargeImages = ImageLoadOptions(rawValue: 1 << 12)
    /// On a memory hit, read the bytes from disk too, asynchronously (SDWebImage's `QueryDataWhenInMemory`).
    public static let queryMemoryData = ImageLoadOptions(rawValue: 1 << 13)
    /// With ``queryMemoryData``: read those bytes synchronously.
    public static let queryMemoryDataSync = ImageLoadOptions(rawValue: 1 << 14)
    /// Query the disk synchronously on the caller's thread.
    public static let queryDiskDataSync = ImageLoadOptions(rawValue: 1 << 15)
    /// Never download: answer from the cache or fail with ``ImageLoadError/Code/notCached``.
    public static let fromCacheOnly = ImageLoadOptions(rawValue: 1 << 16)
    /// Never query the cache: always load (the result is still stored).
    public static let fromLoaderOnly = ImageLoadOptions(rawValue: 1 << 17)
    /// Decode only the first frame of an animation, as a still image.
    public static let decodeFirstFrameOnly = ImageLoadOptions(rawValue: 1 << 18)
    /// Deliver the result only after it is stored on disk (by default the disk write finishes afterwards;
    /// the memory cache is always filled before the result is delivered).
    public static let waitStoreCache = ImageLoadOptions(rawValue: 1 << 20)
    /// Binding: run the transition even for images from the cache (SDWebImage's `ForceTransition`).
    public static let forceTransition = ImageLoadOptions(rawValue: 1 << 22)

    /// The downloader flags these options imply.
    var downloadOptions: DownloadOptions {
        var options: DownloadOptions = []
        let mapping: [(ImageLoadOptions, DownloadOptions)] = [
            (.lowPriority, .lowPriority), (.highPriority, .highPriority), (.progressiveLoad, .progressiveLoad),
            (.handleCookies, .handleCookies),
            (.allowInvalidSSLCertificates, .allowInvalidSSLCertificates), (.scaleDownLargeImages, .scaleDownLargeImages),
        ]
        for (load, download) in mapping where contains(load) { options.insert(download) }
        return options
    }
}
