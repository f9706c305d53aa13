import Foundation
import WebImageCore
import WebImageCoders
import Logging
import CoreMetrics

extension ImageManager {
    /// The whole load after the memory fast path: cache, original bytes, download,
    /// transform, store. Returns the last result, or `nil` when a refresh found the cached image current.
    func runPipeline(_ request: LoadRequest, sink: SharedLoads.Sink) async -> Result<ImageLoadResult?, ImageLoadError> {
        let clock = ContinuousClock()
        let start = clock.now
        // Assigned, then returned: see ``ImageManager/loadImages(_:options:context:)`` on `return` inside `do throws`.
        let outcome: Result<ImageLoadResult?, ImageLoadError>
        do throws(ImageLoadError) {
            outcome = .success(try await pipeline(request, sink: sink))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let result):
            logger.debug("image loaded", metadata: [
                "key": "\(request.finalKey)", "source": "\(result?.cacheType.rawValue ?? "not modified")",
                "bytes": "\(result?.data?.count ?? 0)", "ms": "\((clock.now - start).milliseconds)",
            ])
        case .failure(let error):
            if error.code != .cancelled { metrics.failures.increment() }
            logger.debug("image load failed", metadata: ["key": "\(request.finalKey)", "error": "\(error)"])
        }
        return outcome
    }

    private func pipeline(_ request: LoadRequest, sink: SharedLoads.Sink) async throws(ImageLoadError) -> ImageLoadResult? {
        var cached: ImageLoadResult?
        if !request.options.contains(.fromLoaderOnly), request.queryCacheType != .notCached {
            cached = await cachedImage(request)
            try checkCancellation(request)
            if let cached { metrics.recordHit(cached.cacheType) }
        }
        if let cached {
            guard request.options.contains(.refreshCached) else { return cached }
            sink.intermediate(cached)  // the cached image first, then the refresh.
        } else if request.isDerived, let derived = try await deriveFromOriginal(request) {
            return derived
        }
        // No download when only the cache may answer or the delegate says no.
        if request.options.contains(.fromCacheOnly) {
            guard cached == nil else { return nil }
            throw ImageLoadError(.notCached, "not in the cache and loading is off (fromCacheOnly)", url: request.url)
        }
        if let delegate, !delegate.imageManager(self, shouldDownloadImageFor: request.url) {
            guard cached == nil else { return nil }
            throw ImageLoadError(.downloadNotAllowed, "the delegate refused the download", url: request.url)
        }
        guard let downloaded = try await download(request, refreshing: cached != nil, sink: sink) else {
            return nil  // not modified, no second result.
        }
        let processed = try await process(downloaded, request)
        if case let issues = processed.image.issues, !issues.isEmpty {
            // A damaged file shown as far as it decodes, as a browser does: counted, and said once.
            metrics.damagedImages.increment()
            logger.notice("image decoded with damage", metadata: [
                "key": "\(request.finalKey)", "issues": "\(issues.map(\.description).joined(separator: "; "))",
            ])
        }
        return processed
    }

    /// The image cached under the final key: from memory, else the disk's bytes through the decode stage
    /// (promoted to memory unless the decode is reduced). An entry that does not decode is removed: a miss.
    private func cachedImage(_ request: LoadRequest) async -> ImageLoadResult? {
        let key = request.finalKey
        if request.queryCacheType.includesMemory, let image = request.cache.imageFromMemory(forKey: key) {
            // With queryMemoryData the bytes come too, and the hit is still a memory hit.
            let data = request.options.contains(.queryMemoryData)
                ? await request.cache.storedData(forKey: key, cacheType: .disk)?.data : nil
            return ImageLoadResult(image: image, data: data, cacheType: .memory, url: request.url)
        }
        guard request.queryCacheType.includesDisk, let (data, cacheType) = await storedBytes(request), !Task.isCancelled else {
            return nil
        }
        let decoding = request.isDerived ? request.derivedDecoding : request.decoding
        let stage = request.decodingStage
        let hit = await WorkerThreads.processing.run { stage.decodeHit(data, key: key, options: decoding) }
        guard let (image, promotes) = hit else {
            logger.debug("a cached entry does not decode; removing it", metadata: ["key": "\(key)"])
            try? await request.cache.remove(forKey: key, cacheType: .disk)
            return nil
        }
        if promotes {
            try? await request.cache.store(image, data: nil, forKey: key, extendedData: nil, cacheType: .memory)
        }
        return ImageLoadResult(image: image, data: data, cacheType: cacheType, url: request.url)
    }

    /// The bytes stored under the final key: a derived image's as they are, an original's revalidated when
    /// stale (``storedOriginal(_:)``).
    private func storedBytes(_ request: LoadRequest) async -> (Data, ImageCacheType)? {
        if request.isDerived {
            return await request.cache.storedData(forKey: request.finalKey, cacheType: .disk)?.data.map { ($0, .disk) }
        }
        guard let stored = try? await storedOriginal(request) else { return nil }
        return (stored.data, stored.cacheType == .notCached ? .notCached : .disk)
    }

    /// A derived image (thumbnail, transform) made from original bytes already in the cache: no download.
    private func deriveFromOriginal(_ request: LoadRequest) async throws(ImageLoadError) -> ImageLoadResult? {
        guard !request.options.contains(.fromLoaderOnly), let stored = try await storedOriginal(request) else { return nil }
        try checkCancellation(request)
        guard let decoded = try? await request.decodingStage.decode(stored.data, key: request.key, options: request.decoding) else {
            logger.debug("cached original does not decode; loading it again", metadata: ["key": "\(request.key)"])
            return nil
        }
        if stored.cacheType != .notCached { metrics.recordHit(stored.cacheType) }
        let image = try await transform(decoded, request)
        if !skipsTransform(decoded, request) {
            await store(image, data: nil, forKey: request.finalKey, extendedData: nil, cacheType: request.storeCacheType,
                        in: request.cache, request: request)
        }
        return ImageLoadResult(image: image, data: nil, cacheType: stored.cacheType, url: request.url)
    }

    /// Loads `request.url` (conditionally when refreshing a cached image) and decodes it, keeping the
    /// failed-URL list. Returns `nil` when the server says the cached image is current.
    private func download(
        _ request: LoadRequest, refreshing: Bool, sink: SharedLoads.Sink
    ) async throws(ImageLoadError) -> DownloadResult? {
        var options = request.options.downloadOptions
        var validators: Validators?
        if refreshing {
            // A refresh is never progressive; the validators make it conditional.
            options.remove(.progressiveLoad)
            validators = await storedValidators(request)
        }
        let progress = progressHandler(request, options: options, sink: sink)
        guard let ticket = await decodeBacklog.enter(priority: DownloadPriority(options)) else {
            throw .cancelled(request.url)
        }
        defer { decodeBacklog.leave(ticket) }
        let downloaded = try await fetch(request, options: options, validators: validators, progress: progress)
        decodeBacklog.downloaded(ticket, bytes: downloaded.data.count)
        guard !downloaded.isNotModified else { return nil }
        do throws(ImageDownloadError) {
            return try await request.decodingStage.result(of: downloaded, key: request.key, options: request.decoding)
        } catch {
            throw failure(error, request)
        }
    }

    /// Asks the request's loader for its URL's bytes, keeping the failed-URL list and the download counters.
    func fetch(
        _ request: LoadRequest, options: DownloadOptions, validators: Validators?, progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws(ImageLoadError) -> DownloadedData {
        let loader = request.loader
        guard loader.canLoad(request.url) else {
            throw ImageLoadError(.invalidURL, "no loader handles this URL", url: request.url)
        }
        let downloaded: DownloadedData
        do {
            downloaded = try await loader.loadData(for: request.url, options: options, validators: validators, progress: progress)
        } catch {
            throw failure(error, request)
        }
        _ = state.withLock { $0.failedURLs.remove(request.url) }
        if !downloaded.isNotModified {
            metrics.downloads.increment()
            metrics.downloadedBytes.increment(by: downloaded.data.count)
        }
        return downloaded
    }

    /// The progress callback for the loader: progress for the listeners that want it, and with
    /// ``ImageLoadOptions/progressiveLoad`` partial images decoded from the bytes so far.
    private func progressHandler(
        _ request: LoadRequest, options: DownloadOptions, sink: SharedLoads.Sink
    ) -> (@Sendable (DownloadProgress) -> Void)? {
        let feeder = options.contains(.progressiveLoad)
            ? ProgressiveFeeder(
                coders: request.decodingStage.coders, options: request.decoding,
                interval: configuration.minimumProgressiveInterval, clock: .continuous)
            : nil
        guard feeder != nil || sink.wantsProgress else { return nil }
        let url = request.url
        return { @Sendable progress in
            if let data = progress.data, let feeder {
                feeder.offer(data, expectedBytes: progress.expectedBytes) { image in
                    sink.intermediate(ImageLoadResult(image: image, cacheType: .notCached, url: url, isFinished: false))
                }
            }
            var plain = progress
            plain.data = nil
            sink.progress(plain)
        }
    }

    /// Maps a loader's error to the load's, and puts the URL on the failed-URL list when the delegate (or,
    /// without one, the error being permanent) says so.
    private func failure(_ error: any Error, _ request: LoadRequest) -> ImageLoadError {
        let failure = loadError(error, url: request.url)
        if failure.code != .cancelled, !Task.isCancelled {
            let block = delegate?.imageManager(self, shouldBlockFailedURL: request.url, error: failure) ?? !failure.isTransient
            if block { _ = state.withLock { $0.failedURLs.insert(request.url) } }
        }
        return failure
    }

    /// Scales, transforms and stores a downloaded image.
    private func process(_ downloaded: DownloadResult, _ request: LoadRequest) async throws(ImageLoadError) -> ImageLoadResult {
        let original = downloaded.image
        let image = try await transform(original, request)
        let extendedData = StoredResponseInfo(downloaded.response).encoded()
        if request.isDerived {
            // The original bytes once under the URL's key; the derived image under its own key.
            if request.originalStoreCacheType != .notCached {
                await store(nil, data: downloaded.data, forKey: request.key, extendedData: extendedData,
                            cacheType: request.originalStoreCacheType, in: request.originalCache, request: request)
            }
            // An animation left untransformed is not what the final key names: keep only the original.
            if !skipsTransform(original, request) {
                await store(image, data: nil, forKey: request.finalKey, extendedData: nil,
                            cacheType: request.storeCacheType, in: request.cache, request: request)
            }
        } else {
            let data = image === original ? downloaded.data : nil  // a transformed image is re-encoded.
            await store(image, data: data, forKey: request.key, extendedData: extendedData,
                        cacheType: request.storeCacheType, in: request.cache, request: request)
        }
        return ImageLoadResult(image: image, data: downloaded.data, cacheType: .notCached, url: request.url)
    }

    /// Whether `image` is an animation that the request's transformer must leave alone.
    private func skipsTransform(_ image: Image, _ request: LoadRequest) -> Bool {
        request.transformer != nil && image.isAnimated && !request.options.contains(.transformAnimatedImage)
    }

    /// Applies the delegate's transform and the transformer, skipping animations unless asked,
    /// on the decoding threads.
    private func transform(_ image: Image, _ request: LoadRequest) async throws(ImageLoadError) -> Image {
        guard !image.isAnimated || request.options.contains(.transformAnimatedImage) else { return image }
        let delegate = delegate
        guard delegate != nil || request.transformer != nil else { return image }
        let transformer = request.transformer
        let url = request.url
        return try await WorkerThreads.processing.run { [self] () throws(ImageLoadError) -> Image in
            var result = image
            if let delegate { result = delegate.imageManager(self, transformDownloadedImage: result, for: url) }
            guard let transformer else { return result }
            do {
                return try transformer.transform(result)
            } catch {
                throw ImageLoadError(.transformFailed, "\(transformer.transformerKey) failed", url: url, underlying: error)
            }
        }
    }

    /// Stores into memory before returning, and to disk either before returning (``ImageLoadOptions/waitStoreCache``)
    /// or behind, in the background; a failed disk write is logged, never delivered. The writes behind are bounded:
    /// while more than ``maximumDiskBacklogBytes`` wait for the disk, a store waits for its own write (so a burst of
    /// downloads faster than the disk holds at most that much in memory).
    func store(
        _ image: Image?, data: Data?, forKey key: String, extendedData: Data?, cacheType: ImageCacheType,
        in cache: any ImageCaching, request: LoadRequest
    ) async {
        if cacheType.includesMemory, let image {
            try? await cache.store(image, data: nil, forKey: key, extendedData: nil, cacheType: .memory)
        }
        guard cacheType.includesDisk else { return }
        let bytes = request.serializer.map { $0(image, data, key) } ?? data
        let logger = logger
        let report: @Sendable ((any Error)?) -> Void = { error in
            guard let error else { return }
            logger.warning("could not store an image on disk", metadata: ["key": "\(key)", "error": "\(error)"])
        }
        if request.options.contains(.waitStoreCache) || Self.diskBacklog(of: cache) > Self.maximumDiskBacklogBytes {
            do {
                try await cache.store(image, data: bytes, forKey: key, extendedData: extendedData, cacheType: .disk)
            } catch {
                report(error)
            }
        } else {
            cache.storeInBackground(image, data: bytes, forKey: key, extendedData: extendedData, cacheType: .disk, completion: report)
        }
    }

    /// The most bytes the manager's writes behind may have queued for the disk before stores wait: 64 MiB.
    static let maximumDiskBacklogBytes = 64 << 20

    /// The bytes `cache` has queued for its disk (``ImageCache/diskBacklogBytes``); 0 for a cache that does not say.
    static func diskBacklog(of cache: any ImageCaching) -> Int {
        (cache as? ImageCache)?.diskBacklogBytes ?? 0
    }

    /// The validators stored with the original bytes, for a refresh (empty when none).
    private func storedValidators(_ request: LoadRequest) async -> Validators {
        let stored = await request.originalCache.storedData(forKey: request.key, cacheType: .disk)
        return StoredResponseInfo(decoding: stored?.extendedData)?.validators ?? Validators()
    }

    private func checkCancellation(_ request: LoadRequest) throws(ImageLoadError) {
        if Task.isCancelled { throw .cancelled(request.url) }
    }

    /// Maps whatever a loader threw to an ``ImageLoadError``.
    private func loadError(_ error: any Error, url: URL) -> ImageLoadError {
        if let error = error as? ImageDownloadError {
            if error.code == .cancelled { return ImageLoadError(.cancelled, error.message, url: url, underlying: error) }
            return ImageLoadError(.loadFailed, error.message, url: url, underlying: error)
        }
        if error is CancellationError { return .cancelled(url) }
        return ImageLoadError(.loadFailed, "the loader failed", url: url, underlying: error)
    }
}
