public import Foundation
import CoreMetrics

extension ImageManager {
    /// Loads `url` and calls `completed` with the result.
    ///
    /// A memory hit calls `completed` before this method returns; everything else calls it later from a
    /// background task. `completed` is called once, except that progressive loads first deliver partial
    /// images (``ImageLoadResult/isFinished`` `== false`) and ``ImageLoadOptions/refreshCached`` first
    /// delivers the cached image, then the new one only if it changed. After the returned operation is
    /// cancelled, `completed` is never called.
    ///
    /// ```swift
    /// let operation = manager.loadImage(with: url, options: [.retryFailed]) { result in
    ///     switch result {
    ///     case .success(let loaded): show(loaded.image)
    ///     case .failure(let error): log(error)
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - url: The image's URL; `nil` or empty fails with ``ImageLoadError/Code/invalidURL``.
    ///   - options: How to load.
    ///   - context: Per-request overrides.
    ///   - progress: Bytes received, from a background task.
    ///   - completed: The result.
    /// - Returns: The operation; cancelling it stops the cache query and the download.
    @discardableResult
    public func loadImage(
        with url: URL?,
        options: ImageLoadOptions = [],
        context: ImageLoadContext? = nil,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil,
        completed: @escaping @Sendable (Result<ImageLoadResult, ImageLoadError>) -> Void
    ) -> LoadOperation {
        let request: LoadRequest
        switch begin(url, options: options, context: context) {
        case .done(let result):
            completed(result)
            return finishedOperation(url: url)
        case .run(let resolved):
            request = resolved
        }
        if let hit = synchronousHit(request) {
            completed(.success(hit))
            return finishedOperation(url: url)
        }
        let operation = LoadOperation(url: url)
        start(request, operation, progress: progress, intermediate: { completed(.success($0)) }) { result in
            switch result {
            case .success(let loaded?): completed(.success(loaded))
            case .success(nil): break
            case .failure(let error): completed(.failure(error))
            }
        }
        return operation
    }

    /// Loads a URL given as a string; a string that is not a URL fails with ``ImageLoadError/Code/invalidURL``.
    @discardableResult
    public func loadImage(
        with string: String,
        options: ImageLoadOptions = [],
        context: ImageLoadContext? = nil,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil,
        completed: @escaping @Sendable (Result<ImageLoadResult, ImageLoadError>) -> Void
    ) -> LoadOperation {
        loadImage(with: URL(string: string), options: options, context: context, progress: progress, completed: completed)
    }

    /// Loads `url`: from memory without suspending, else from disk, else through the loader.
    ///
    /// Cancelling the calling task cancels the load and throws ``ImageLoadError/Code/cancelled``. With
    /// ``ImageLoadOptions/refreshCached`` this returns after the revalidation: the new image if it
    /// changed, else the cached one (use the callback form to get the cached image first).
    ///
    /// ```swift
    /// let loaded = try await ImageManager.shared.loadImage(from: url, options: [.scaleDownLargeImages])
    /// ```
    /// - Throws: ``ImageLoadError``.
    public func loadImage(
        from url: URL,
        options: ImageLoadOptions = [],
        context: ImageLoadContext? = nil,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(ImageLoadError) -> ImageLoadResult {
        let request: LoadRequest
        switch begin(url, options: options, context: context) {
        case .done(let result): return try result.get()
        case .run(let resolved): request = resolved
        }
        let operation = LoadOperation(url: url)
        let cachedFirst = LockedValue<ImageLoadResult?>(nil)
        let result: Result<ImageLoadResult, ImageLoadError> = await withTaskCancellationHandler {
            await withHandOff { deliver in
                // Exactly one of these runs: the operation either is cancelled or delivers its last result.
                operation.onCancel { deliver(.failure(.cancelled(url))) }
                let remember: @Sendable (ImageLoadResult) -> Void = { loaded in
                    if loaded.isFinished { cachedFirst.withLock { $0 = loaded } }
                }
                start(request, operation, progress: progress, intermediate: remember) { result in
                    deliver(result.flatMap { loaded in
                        guard let loaded = loaded ?? cachedFirst.withLock({ $0 }) else {
                            return .failure(ImageLoadError(.notCached, "nothing to deliver", url: url))
                        }
                        return .success(loaded)
                    })
                }
            }
        } onCancel: {
            operation.cancel()
        }
        return try result.get()
    }

    /// How a load starts: finished at once (empty or blocked URL, memory hit), or with a pipeline to run.
    enum Start {
        case done(Result<ImageLoadResult, ImageLoadError>)
        case run(LoadRequest)
    }

    /// The synchronous part of every load: the URL checks and the memory fast path.
    func begin(_ url: URL?, options: ImageLoadOptions, context: ImageLoadContext?) -> Start {
        guard let url else {
            return .done(.failure(ImageLoadError(.invalidURL, "trying to load an empty URL", url: url)))
        }
        let absoluteString = url.absoluteString
        guard !absoluteString.isEmpty else {
            return .done(.failure(ImageLoadError(.invalidURL, "trying to load an empty URL", url: url)))
        }
        if !options.contains(.retryFailed), state.withLock({ $0.failedURLs.contains(url) }) {
            return .done(.failure(ImageLoadError(
                .blockedURL, "this URL failed before; pass .retryFailed to try it again", url: url)))
        }
        let needsMore: ImageLoadOptions = [.fromLoaderOnly, .refreshCached, .queryMemoryData]
        guard options.isDisjoint(with: needsMore) else { return .run(makeRequest(url: url, options: options, context: context)) }
        // The common case, no context and nothing that changes the key: look in memory before resolving the
        // whole request (the key is the URL's own, and the cache the manager's).
        let plain = context == nil && configuration.transformer == nil && !options.contains(.decodeFirstFrameOnly)
        if plain {
            if let image = cache.imageFromMemory(forKey: configuration.cacheKeyFilter?(url) ?? absoluteString) {
                return memoryHit(image, url: url)
            }
            return .run(makeRequest(url: url, options: options, context: context))
        }
        let request = makeRequest(url: url, options: options, context: context)
        if request.queryCacheType.includesMemory, let image = request.cache.imageFromMemory(forKey: request.finalKey) {
            return memoryHit(image, url: url)
        }
        return .run(request)
    }

    private func memoryHit(_ image: Image, url: URL) -> Start {
        metrics.memoryHits.increment()
        return .done(.success(ImageLoadResult(image: image, cacheType: .memory, url: url)))
    }

    /// The hit a synchronous query asks for: with ``ImageLoadOptions/queryMemoryDataSync`` a
    /// memory hit with its bytes, with ``ImageLoadOptions/queryDiskDataSync`` a disk hit, read and decoded on
    /// the caller's thread (no queue is waited for). `nil`: not asked for, or a miss; the load goes on as usual.
    private func synchronousHit(_ request: LoadRequest) -> ImageLoadResult? {
        let options = request.options
        guard options.isDisjoint(with: [.fromLoaderOnly, .refreshCached]) else { return nil }
        let key = request.finalKey
        if request.queryCacheType.includesMemory, let image = request.cache.imageFromMemory(forKey: key) {
            guard options.contains(.queryMemoryDataSync) else { return nil }
            let data = request.cache.storedDataSynchronously(forKey: key)
            metrics.memoryHits.increment()
            return ImageLoadResult(image: image, data: data, cacheType: .memory, url: request.url)
        }
        guard options.contains(.queryDiskDataSync), request.queryCacheType.includesDisk,
              let data = request.cache.storedDataSynchronously(forKey: key)
        else { return nil }
        let decoding = request.isDerived ? request.derivedDecoding : request.decoding
        guard let image = try? request.decodingStage.decodeHere(data, key: key, options: decoding) else { return nil }
        metrics.recordHit(.disk)
        return ImageLoadResult(image: image, data: data, cacheType: .disk, url: request.url)
    }

    /// Joins (or starts) the pipeline for `request` and routes what it delivers through `operation`,
    /// which drops everything once cancelled.
    func start(
        _ request: LoadRequest, _ operation: LoadOperation,
        progress: (@Sendable (DownloadProgress) -> Void)?,
        intermediate: @escaping @Sendable (ImageLoadResult) -> Void,
        finish: @escaping @Sendable (Result<ImageLoadResult?, ImageLoadError>) -> Void
    ) {
        var guardedProgress: (@Sendable (DownloadProgress) -> Void)?
        if let progress {
            guardedProgress = { @Sendable value in
                if !operation.isCancelled { progress(value) }
            }
        }
        let deliverIntermediate: @Sendable (ImageLoadResult) -> Void = { result in
            if operation.claimDelivery(final: false) { intermediate(result) }
        }
        let deliverFinal: @Sendable (Result<ImageLoadResult?, ImageLoadError>) -> Void = { result in
            if operation.claimDelivery(final: true) { finish(result) }
        }
        let listener = SharedLoads.Listener(
            progress: guardedProgress, intermediate: deliverIntermediate, finish: deliverFinal, cancel: { operation.cancel() })
        let subscription = sharedLoads.join(request.sharingKey, url: request.url, listener: listener) { [self] sink in
            await runPipeline(request, sink: sink)
        }
        operation.attach(subscription)
    }
}
