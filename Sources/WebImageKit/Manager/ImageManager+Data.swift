public import Foundation
import Logging
import WebImageCore

extension ImageManager {
    /// The bytes of `url`, not decoded: from the disk cache, else through the loader (then stored on disk with
    /// their validators), as Nuke's `data(for:)`. An entry older than ``Configuration/revalidationInterval`` is
    /// asked for again first, conditionally.
    ///
    /// It is not one of the manager's shared loads (``isRunning`` and ``cancelAll()`` do not see it; cancel the
    /// calling task instead) and does not ask the delegate; simultaneous calls for one URL share the download.
    ///
    /// For a disk hit, ``DownloadedData/response`` is the response the bytes were stored with (status 200, the
    /// `ETag`, `Last-Modified` and `Content-Type` kept beside them), so its ``DownloadResponse/validators`` are
    /// the source's either way.
    ///
    /// ```swift
    /// let source = try await ImageManager.shared.loadData(from: url)
    /// print(source.data.count, source.response.validators)
    /// ```
    /// - Throws: ``ImageLoadError``: the URL failed before (without ``ImageLoadOptions/retryFailed``), it is not
    ///   cached and ``ImageLoadOptions/fromCacheOnly`` was given, or the loader failed.
    public func loadData(from url: URL, options: ImageLoadOptions = []) async throws(ImageLoadError) -> DownloadedData {
        if !options.contains(.retryFailed), state.withLock({ $0.failedURLs.contains(url) }) {
            throw ImageLoadError(.blockedURL, "this URL failed before; pass .retryFailed to try it again", url: url)
        }
        let request = makeRequest(url: url, options: options, context: nil)
        if !options.contains(.fromLoaderOnly), let stored = try await storedOriginal(request) {
            metrics.recordHit(stored.cacheType)
            return stored.downloaded(url: url)
        }
        if options.contains(.fromCacheOnly) {
            throw ImageLoadError(.notCached, "not in the cache and loading is off (fromCacheOnly)", url: url)
        }
        let downloaded = try await fetch(request, options: options.downloadOptions.subtracting(.progressiveLoad), validators: nil, progress: nil)
        await store(nil, data: downloaded.data, forKey: request.key, extendedData: StoredResponseInfo(downloaded.response).encoded(),
                    cacheType: request.originalStoreCacheType, in: request.originalCache, request: request)
        return downloaded
    }
}

/// Original bytes read from a cache (or just fetched again by a revalidation), with what was stored beside them.
struct StoredOriginal: Sendable {
    var data: Data
    var info: StoredResponseInfo?
    /// Where they were found; ``ImageCacheType/notCached`` when a revalidation fetched new bytes.
    var cacheType: ImageCacheType

    /// The bytes as a loader's answer: the stored response headers, status 200.
    func downloaded(url: URL) -> DownloadedData {
        var headers: [String: String] = [:]
        headers["etag"] = info?.etag
        headers["last-modified"] = info?.lastModified
        headers["content-type"] = info?.contentType
        headers["cache-control"] = info?.cacheControl
        headers["expires"] = info?.expires
        return DownloadedData(data: data, response: DownloadResponse(url: url, statusCode: 200, headers: headers))
    }
}

extension ImageManager {
    /// The original bytes of `request` in its original cache, revalidated first when older than
    /// ``Configuration/revalidationInterval``: a 304 marks them current, new bytes replace them, and a failure
    /// keeps them (the origin's trouble does not hide an image the cache has). `nil` on a miss.
    func storedOriginal(_ request: LoadRequest) async throws(ImageLoadError) -> StoredOriginal? {
        let cacheType = request.isDerived ? request.originalQueryCacheType : (request.queryCacheType.includesDisk ? .disk : .notCached)
        guard cacheType != .notCached, let stored = await request.originalBytesCache.storedData(forKey: request.key, cacheType: cacheType),
              let data = stored.data
        else { return nil }
        let original = StoredOriginal(data: data, info: StoredResponseInfo(decoding: stored.extendedData), cacheType: stored.cacheType)
        guard let interval = configuration.revalidationInterval, let storedDate = stored.storedDate,
              Self.age(of: storedDate) >= interval
        else { return original }
        return try await revalidate(original, request)
    }

    /// Asks the loader for `request`'s URL with the stored validators.
    private func revalidate(_ original: StoredOriginal, _ request: LoadRequest) async throws(ImageLoadError) -> StoredOriginal {
        let fetched: DownloadedData
        do throws(ImageLoadError) {
            let options = request.options.downloadOptions.subtracting(.progressiveLoad)
            fetched = try await fetch(request, options: options, validators: original.info?.validators, progress: nil)
        } catch {
            if error.code == .cancelled || Task.isCancelled { throw .cancelled(request.url) }
            logger.debug("revalidation failed; using the cached bytes", metadata: ["key": "\(request.key)", "error": "\(error)"])
            return original
        }
        if fetched.isNotModified {
            await markFresh(request.key, original, in: request.originalBytesCache, request: request)
            return original
        }
        let info = StoredResponseInfo(fetched.response)
        await store(nil, data: fetched.data, forKey: request.key, extendedData: info.encoded(),
                    cacheType: .disk, in: request.originalBytesCache, request: request)
        return StoredOriginal(data: fetched.data, info: info, cacheType: .notCached)
    }

    /// Restarts the entry's age without rewriting it where the cache allows (``ImageCache``), else stores it again.
    private func markFresh(_ key: String, _ original: StoredOriginal, in cache: any ImageCaching, request: LoadRequest) async {
        if let imageCache = cache as? ImageCache, await imageCache.diskCache.markFresh(forKey: key) { return }
        await store(nil, data: original.data, forKey: key, extendedData: original.info?.encoded(), cacheType: .disk, in: cache, request: request)
    }
}

extension ImageManager {
    /// The validators stored with `url`'s bytes in the manager's disk cache, read without the bytes; nil when it
    /// is not there, has none, or is due for revalidation (the next load may replace it).
    package func freshValidators(for url: URL) async -> Validators? {
        guard let imageCache = cache as? ImageCache,
              let (extendedData, storedDate) = await imageCache.diskCache.metadata(forKey: cacheKey(for: url))
        else { return nil }
        if let interval = configuration.revalidationInterval, Self.age(of: storedDate) >= interval { return nil }
        let validators = StoredResponseInfo(decoding: extendedData)?.validators
        return validators?.isEmpty == false ? validators : nil
    }

    /// How long ago `date` was, never negative.
    static func age(of date: Date) -> Duration {
        .milliseconds(max(0, Int64(Date().timeIntervalSince(date) * 1000)))
    }
}
