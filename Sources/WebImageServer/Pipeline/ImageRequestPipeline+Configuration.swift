import Foundation
import Logging
import WebImageKit

extension ImageRequestPipeline {
    /// The pipeline `configuration` describes: its own ``ImageManager`` for sources (a disk cache in the
    /// configured folder, the guarded HTTP client, revalidation after the source max-age), the result cache, the
    /// admission limits and the decoding limits.
    init(configuration: ImageServerConfiguration, metrics: ServerMetrics, logger: Logger) throws {
        var loader: any ImageLoading
        if let given = configuration.loader {
            loader = given
        } else {
            var settings = ImageDownloader.Configuration()
            settings.transport = try GuardedHTTPTransport(
                policy: configuration.sourcePolicy, maximumRedirects: configuration.maximumRedirects,
                verifiesCertificates: configuration.verifiesSourceCertificates)
            settings.timeout = configuration.downloadTimeout
            settings.maximumResponseSize = configuration.maximumSourceBytes
            settings.maximumRedirects = configuration.maximumRedirects
            // Admission bounds the work; the downloader's own queue never holds a request back.
            settings.maximumConcurrentDownloads = max(64, configuration.workers + configuration.maximumQueue)
            if let userAgent = configuration.userAgent { settings.headers["User-Agent"] = userAgent }
            // With a transport, the downloader holds no HTTPClient: nothing to shut down.
            loader = ImageDownloader(configuration: settings, logger: logger)
        }
        if let root = configuration.localFilesystemRoot {
            guard let local = LocalFileSource(root: root, maximumBytes: configuration.maximumSourceBytes) else {
                throw LocalRootMissing(path: root.path)
            }
            loader = ImageLoaderRegistry(loaders: [loader, local])
        }
        if configuration.usesS3 {
            loader = ImageLoaderRegistry(loaders: [loader, S3Source(
                endpoint: configuration.s3Endpoint, endpointUsesPathStyle: configuration.s3EndpointUsesPathStyle, region: configuration.s3Region,
                credentials: AWSCredentials.load(environment: configuration.s3Environment),
                maximumBytes: configuration.maximumSourceBytes, timeout: configuration.downloadTimeout)])
        }
        var decoding = ImageDecodingOptions(
            maximumPixelCount: configuration.maximumSourcePixelCount, maximumAnimationByteCount: configuration.maximumAnimationBytes,
            firstFrameWhenAnimationTooLarge: true, maximumSourcePixelCount: configuration.maximumSourcePixelCount)
        decoding.applyOrientation = true
        self.init(
            signature: configuration.signature,
            parser: ImgproxyURLParser(configuration),
            sourcePolicy: configuration.sourcePolicy,
            negotiation: AcceptNegotiation(configuration),
            sources: ImageManager(
                cache: ImageCache(namespace: "sources", root: configuration.cacheDirectory),
                loader: TimedLoader(base: loader, metrics: metrics),
                configuration: ImageManager.Configuration(revalidationInterval: configuration.sourceMaxAge),
                logger: logger
            ),
            results: ResultCache(root: configuration.cacheDirectory, maximumSize: configuration.resultCacheSize),
            cacheAdmission: CacheAdmission(minimumUses: configuration.cacheMinimumUses),
            shared: SharedTasks(),
            admission: WorkLimiter(workers: configuration.workers, maximumQueue: configuration.maximumQueue, metrics: metrics),
            decoding: decoding,
            coders: .shared,
            metrics: metrics,
            configuration: configuration,
            resultSettings: configuration.resultSettings
        )
    }
}

/// The configured local root is not a folder.
struct LocalRootMissing: Error, CustomStringConvertible {
    let path: String
    var description: String { "the local filesystem root '\(path)' is not a folder" }
}

extension ImgproxyURLParser {
    /// The parser of the URLs `configuration` accepts: its presets, separators and allowed options.
    init(_ configuration: ImageServerConfiguration) {
        self.init(
            presets: configuration.presets, argumentsSeparator: configuration.argumentsSeparator, onlyPresets: configuration.onlyPresets,
            base64SourceIncludesFilename: configuration.base64SourceIncludesFilename, allowsSecurityOptions: configuration.allowsSecurityOptions)
        allowedOptions = OptionNames.expanded(configuration.allowedProcessingOptions)
    }
}
