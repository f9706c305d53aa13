import Foundation
import WebImageCore

/// One load with everything resolved: keys, the cache and loader to use, decoding, cache types.
struct LoadRequest: Sendable {
    let url: URL
    let options: ImageLoadOptions
    /// The key of the original image (the URL's cache key).
    let key: String
    /// The key of what is delivered: ``key`` plus thumbnail, first-frame, scale and transformer suffixes.
    let finalKey: String
    let cache: any ImageCaching
    let originalCache: any ImageCaching
    let loader: any ImageLoading
    let transformer: (any ImageTransforming)?
    let serializer: CacheSerializer?
    /// How downloads and originals are decoded.
    let decoding: ImageDecodingOptions
    /// Where they are decoded: the manager's coders, or the context's.
    let decodingStage: ImageDecodingStage
    let queryCacheType: ImageCacheType
    let storeCacheType: ImageCacheType
    let originalQueryCacheType: ImageCacheType
    let originalStoreCacheType: ImageCacheType
    /// Whether simultaneous identical loads may share this one's pipeline.
    let isShareable: Bool

    /// The key under which simultaneous identical loads share one pipeline; `nil` runs alone.
    var sharingKey: LoadKey? {
        guard isShareable else { return nil }
        let perCaller: ImageLoadOptions = [.delayPlaceholder, .avoidAutoSetImage, .forceTransition, .lowPriority, .highPriority]
        return LoadKey(
            url: url, finalKey: finalKey, options: options.subtracting(perCaller).rawValue, decoding: decoding,
            coders: ObjectIdentifier(decodingStage.coders), cache: ObjectIdentifier(cache), originalCache: ObjectIdentifier(originalCache),
            cacheTypes: [queryCacheType, storeCacheType, originalQueryCacheType, originalStoreCacheType])
    }

    /// Where the original bytes are kept: the original cache for a derived image, else the request's cache.
    var originalBytesCache: any ImageCaching { isDerived ? originalCache : cache }

    /// Whether what is delivered differs from the original (so it has a key of its own).
    var isDerived: Bool { finalKey != key }

    /// How a cached derived image is decoded: it is already reduced and transformed.
    var derivedDecoding: ImageDecodingOptions {
        var decoding = decoding
        decoding.thumbnailPixelSize = nil
        decoding.scaleDownLimitBytes = nil
        return decoding
    }
}

/// What makes two loads the same work.
struct LoadKey: Hashable, Sendable {
    let url: URL
    let finalKey: String
    let options: Int
    let decoding: ImageDecodingOptions
    let coders: ObjectIdentifier
    let cache: ObjectIdentifier
    let originalCache: ObjectIdentifier
    let cacheTypes: [ImageCacheType]
    /// Non-zero for a load that runs alone: its operation's id.
    var solo: UInt64 = 0

    /// A key no other load has.
    static func solo(_ id: UInt64, url: URL) -> LoadKey {
        LoadKey(
            url: url, finalKey: "", options: 0, decoding: ImageDecodingOptions(), coders: ObjectIdentifier(LoadKey.self),
            cache: ObjectIdentifier(LoadKey.self),
            originalCache: ObjectIdentifier(LoadKey.self), cacheTypes: [], solo: id)
    }
}

extension ImageManager {
    /// Resolves `url`, `options` and `context` against this manager's defaults.
    func makeRequest(url: URL, options: ImageLoadOptions, context: ImageLoadContext?) -> LoadRequest {
        let context = context ?? ImageLoadContext()
        let key = context.cacheKeyFilter?(url) ?? cacheKey(for: url)
        var decoding = context.decodingOptions ?? configuration.decodingOptions
        var suffixes: [String] = []
        if let size = context.thumbnailPixelSize {
            decoding.thumbnailPixelSize = size
            decoding.thumbnailMode = context.thumbnailMode ?? decoding.thumbnailMode
            // "fill" named the stretched thumbnail before covering ones existed: keys already on disk keep it.
            let mode = decoding.thumbnailMode == .stretch ? "fill" : decoding.thumbnailMode == .fill ? "cover" : "fit"
            suffixes.append("thumbnail(\(size.width)x\(size.height),\(mode))")
        }
        // As in SDWebImage, scale-down is no part of the key: most images are under the budget and unchanged.
        decoding = ImageDecodingStage.options(decoding, scalingDown: options.contains(.scaleDownLargeImages))
        if options.contains(.decodeFirstFrameOnly) {
            decoding.firstFrameOnly = true
            suffixes.append("firstFrame")
        }
        if let scale = context.scaleFactor {
            decoding.scale = scale
            suffixes.append("scale\(scale)")
        }
        let transformer = context.transformer ?? configuration.transformer
        if let transformer, !transformer.transformerKey.isEmpty { suffixes.append(transformer.transformerKey) }
        let finalKey = suffixes.isEmpty ? key : ([key] + suffixes).joined(separator: "-")

        let cache = context.cache ?? self.cache
        let originalCache = context.originalCache ?? cache
        let storeCacheType = context.storeCacheType ?? (options.contains(.cacheMemoryOnly) ? .memory : .all)
        let queryCacheType = context.queryCacheType ?? .all
        let originalQueryCacheType = context.originalQueryCacheType ?? .disk
        let originalStoreCacheType = context.originalStoreCacheType
            ?? (options.contains(.cacheMemoryOnly) ? .notCached : .disk)
        // A custom loader or serializer cannot be compared, and a refresh delivers twice: those run alone.
        let shareable = context.loader == nil && context.cacheSerializer == nil && !options.contains(.refreshCached)
        return LoadRequest(
            url: url, options: options, key: key, finalKey: finalKey, cache: cache, originalCache: originalCache,
            loader: context.loader ?? loader, transformer: transformer,
            serializer: context.cacheSerializer ?? configuration.cacheSerializer, decoding: decoding,
            decodingStage: ImageDecodingStage(coders: context.coders ?? configuration.coders),
            queryCacheType: queryCacheType, storeCacheType: storeCacheType,
            originalQueryCacheType: originalQueryCacheType, originalStoreCacheType: originalStoreCacheType,
            isShareable: shareable)
    }
}
