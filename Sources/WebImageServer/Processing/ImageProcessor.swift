import CoreMetrics
import Crypto
import Foundation
import Logging
import WebImageCore
import WebImageKit

/// A processed image, ready to send.
struct ProcessedImage: Sendable {
    /// The encoded bytes.
    let data: Data
    /// Their format.
    let format: ImageFormat
    /// The entity tag: a digest of the result key and the source's validators (or, for a source without
    /// validators, of the result's bytes). The signature is not part of it.
    let etag: String
    /// The source's `Last-Modified`, passed through.
    let lastModified: String?
}

/// Fetches, decodes, resizes and encodes: the server's own ``ImageManager`` (a memory and disk cache of
/// sources in the configured folder, the guarded HTTP client), shrink-on-load where the options allow it,
/// the options' processing as a transformer, and the options' format and quality; results go to the
/// ``ResultCache``, identical requests in flight share one piece of work, and at most `workers` run at once.
final class ImageProcessor: Sendable {
    let manager: ImageManager
    let sourceCache: ImageCache
    let results: ResultCache
    let encoders: ImageCodersManager
    let limiter: WorkLimiter
    let shared: SharedWork<ProcessedImage>
    let metrics: ServerMetrics
    let maximumSourcePixelCount: Int
    let maximumResultPixelCount: Int
    let defaultQuality: Int
    let sourceMaxAge: Duration

    init(configuration: ImageServerConfiguration, metrics: ServerMetrics, logger: Logger) throws {
        let decoders = ImageCodersManager(coders: [TimedDecoder(base: SourceDecoder(coders: .shared), metrics: metrics)])
        var decoding = ImageDecodingOptions(maximumPixelCount: configuration.maximumSourcePixelCount)
        decoding.maximumAnimationByteCount = configuration.maximumAnimationBytes
        decoding.firstFrameWhenAnimationTooLarge = true
        let loader: any ImageLoading
        if let given = configuration.loader {
            loader = given
        } else {
            var settings = ImageDownloader.Configuration()
            settings.transport = try GuardedHTTPTransport(policy: configuration.sourcePolicy, maximumRedirects: configuration.maximumRedirects)
            settings.timeout = configuration.downloadTimeout
            settings.maximumResponseSize = configuration.maximumSourceBytes
            settings.maximumRedirects = configuration.maximumRedirects
            settings.maximumConcurrentDownloads = max(6, configuration.workers)
            // With a transport, the downloader holds no HTTPClient: nothing to shut down.
            loader = ImageDownloader(configuration: settings, logger: logger)
        }
        sourceCache = ImageCache(namespace: "sources", root: configuration.cacheDirectory)
        manager = ImageManager(
            cache: sourceCache,
            loader: TimedLoader(base: loader, metrics: metrics),
            configuration: ImageManager.Configuration(decodingOptions: decoding, coders: decoders),
            logger: logger
        )
        results = ResultCache(root: configuration.cacheDirectory, maximumSize: configuration.resultCacheSize)
        encoders = .shared
        limiter = WorkLimiter(workers: configuration.workers, maximumQueue: configuration.maximumQueue, metrics: metrics)
        shared = SharedWork(timeout: configuration.requestTimeout)
        self.metrics = metrics
        maximumSourcePixelCount = configuration.maximumSourcePixelCount
        maximumResultPixelCount = configuration.maximumResultPixelCount
        defaultQuality = configuration.defaultQuality
        sourceMaxAge = configuration.sourceMaxAge
    }

    /// The result for `source` and `options` in `format` (nil: the source's format when it can be written):
    /// from the result cache, or made once however many requests ask for it at the same time.
    func result(for source: URL, options: ProcessingOptions, format: ImageFormat?) async throws(ProcessingFailure) -> ProcessedImage {
        let key = ResultCache.key(source: source.absoluteString, options: options, format: format)
        if let cached = await results.result(forKey: key, maximumAge: sourceMaxAge) {
            metrics.resultCacheHits.increment()
            return cached
        }
        metrics.resultCacheMisses.increment()
        do {
            return try await shared.value(for: key) { [self] in
                let processed = try await limiter.run {
                    try await process(source, options: options, format: format, key: key)
                }
                await results.store(processed, forKey: key)
                return processed
            }
        } catch let failure as ProcessingFailure {
            throw failure
        } catch is WorkLimiter.Busy {
            throw ProcessingFailure(429, "the server is busy; try again shortly")
        } catch is SharedWork<ProcessedImage>.TimedOut {
            throw ProcessingFailure(504, "the image took too long to fetch and process")
        } catch {
            throw ProcessingFailure(500, "the image could not be processed")
        }
    }

    /// The entity tag a result for `key` will have, known without processing when the source is cached
    /// with validators; nil otherwise.
    func knownETag(forKey key: String, source: URL) async -> String? {
        if let cached = await results.result(forKey: key, maximumAge: sourceMaxAge) { return cached.etag }
        guard let validators = await storedValidators(of: source) else { return nil }
        return Self.etag(key: key, fingerprint: validators.fingerprint)
    }

    /// Loads `source` through the manager and processes it per `options`.
    private func process(_ source: URL, options: ProcessingOptions, format requested: ImageFormat?, key: String) async throws(ProcessingFailure) -> ProcessedImage {
        let loaded: ImageLoadResult
        do {
            // Animations are decoded whole (within the animation budget) when the result may be animated.
            let keepsAnimation = requested.map(Self.animatedFormats.contains) ?? true
            let loadOptions: ImageLoadOptions = keepsAnimation ? [.retryFailed, .transformAnimatedImage] : [.retryFailed, .decodeFirstFrameOnly]
            await revalidateIfStale(source)
            loaded = try await manager.loadImage(from: source, options: loadOptions, context: context(for: options))
        } catch {
            throw ProcessingFailure(error, maximumSourcePixelCount: maximumSourcePixelCount)
        }
        let format = requested ?? outputFormat(for: loaded.image)
        let image: Image
        do {
            // A format chosen only now (the source's) may lose alpha the transformer did not flatten.
            image = try options.flattened(loaded.image, for: format)
        } catch {
            throw ProcessingFailure(422, "the image could not be processed")
        }
        let encoding = ImageEncodingOptions(
            quality: Double(options.quality ?? defaultQuality) / 100, firstFrameOnly: !Self.animatedFormats.contains(format))
        let encoders = self.encoders
        let data: Data
        do {
            data = try await metrics.time(.encode) {
                try await WorkerThreads.processing.run { () throws -> Data in
                    try encoders.encode(image, as: format, options: encoding)
                }
            }
        } catch {
            throw ProcessingFailure(500, "the image could not be encoded as \(format.displayName)")
        }
        let validators = await storedValidators(of: source)
        let fingerprint = validators?.fingerprint ?? Data(SHA256.hash(data: data))
        return ProcessedImage(data: data, format: format, etag: Self.etag(key: key, fingerprint: fingerprint), lastModified: validators?.lastModified)
    }

    /// The validators the source was stored with, when it has any.
    func storedValidators(of source: URL) async -> SourceValidators? {
        let entry = await sourceCache.diskCache.entry(forKey: manager.cacheKey(for: source))
        return SourceValidators(decoding: entry?.extendedData)
    }

    /// A strong entity tag: URL-safe base64 of the first 16 bytes of SHA-256 over the key and the fingerprint.
    static func etag(key: String, fingerprint: Data) -> String {
        var hasher = SHA256()
        hasher.update(data: Data(key.utf8))
        hasher.update(data: fingerprint)
        let digest = Data(hasher.finalize().prefix(16))
        return "\"" + Base64URL.encode(digest) + "\""
    }

    /// The manager's context for `options`: shrink-on-load, the transformer, EXIF rotation. Processed images
    /// are not kept in memory (the encoded results are in the ``ResultCache``; a memory cache of per-size
    /// images would mostly hold sizes never asked for again); the source bytes go to disk.
    private func context(for options: ProcessingOptions) -> ImageLoadContext {
        var decoding = manager.configuration.decodingOptions
        decoding.applyOrientation = options.autoRotate ?? true
        let shrink = options.shrinkOnLoad
        let transformer = ProcessingTransformer(options: options, maximumPixelCount: maximumResultPixelCount)
        return ImageLoadContext(
            transformer: TimedTransformer(base: transformer, metrics: metrics),
            thumbnailPixelSize: shrink?.size,
            preserveAspectRatio: shrink?.fit,
            storeCacheType: .notCached,
            decodingOptions: decoding
        )
    }

    /// The formats whose results keep a source's animation.
    static let animatedFormats: Set<ImageFormat> = [.gif, .webp, .avif]

    /// The source's format when it can be written; else PNG with alpha, JPEG without.
    func outputFormat(for image: Image) -> ImageFormat {
        let writable: Set<ImageFormat> = [.jpeg, .png, .gif, .webp, .avif]
        if writable.contains(image.format), encoders.canEncode(to: image.format) { return image.format }
        return image.hasAlpha ? .png : .jpeg
    }
}

/// The HTTP validators the manager stores beside a source's bytes (its JSON extended data: `etag`,
/// `lastModified`, `contentType`).
struct SourceValidators: Codable, Sendable {
    var etag: String?
    var lastModified: String?
    var contentType: String?

    /// The validators of a response.
    init(response: DownloadResponse) {
        etag = response.value(forHeader: "etag")
        lastModified = response.value(forHeader: "last-modified")
        contentType = response.value(forHeader: "content-type")
    }

    /// The JSON the manager writes.
    func encoded() -> Data? { try? JSONEncoder().encode(self) }

    /// Reads the manager's extended data; nil when it holds neither validator.
    init?(decoding data: Data?) {
        guard let data, let decoded = try? JSONDecoder().decode(SourceValidators.self, from: data),
            decoded.etag != nil || decoded.lastModified != nil
        else { return nil }
        self = decoded
    }

    /// The validators as bytes for the entity tag.
    var fingerprint: Data { Data("\(etag ?? "")\n\(lastModified ?? "")".utf8) }
}

extension OutputFormat {
    /// The library's format.
    var imageFormat: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .gif: .gif
        case .webp: .webp
        case .avif: .avif
        }
    }
}
