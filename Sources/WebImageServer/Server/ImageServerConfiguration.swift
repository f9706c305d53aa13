public import Foundation
public import WebImageKit

/// Everything `webimage serve` (or an embedding app) configures about the image server.
public struct ImageServerConfiguration: Sendable {
    /// The host to listen on; `127.0.0.1` by default.
    public var host: String
    /// The port to listen on; 0 picks a free port.
    public var port: Int
    /// The key/salt pairs URLs are signed with; none turns signature checking off (a warning is logged).
    public var signature: URLSignatureVerifier
    /// The named presets URLs may use.
    public var presets: ProcessingPresets
    /// Whether URLs name only presets in their options part (`IMGPROXY_ONLY_PRESETS`); default false.
    public var onlyPresets: Bool
    /// What separates an option's name and arguments in URLs and presets (`IMGPROXY_ARGUMENTS_SEPARATOR`); `:`.
    public var argumentsSeparator: Character
    /// Whether a base64 source's last path segment is a file name to ignore (`IMGPROXY_BASE64_URL_INCLUDES_FILENAME`).
    public var base64SourceIncludesFilename: Bool
    /// A text that changes every result's `ETag` (and cache key) when it changes (`IMGPROXY_ETAG_BUSTER`); empty by default.
    public var etagBuster: String
    /// The most client connections open at once; more are closed as they arrive (`IMGPROXY_MAX_CLIENTS`). Default
    /// 2048, as imgproxy's; 0: no limit.
    public var maximumClients: Int
    /// The processing options URLs may use, by either name (`IMGPROXY_ALLOWED_PROCESSING_OPTIONS`); another is a
    /// 403. Empty (the default): all. Presets may use any.
    public var allowedProcessingOptions: [String]
    /// Which sources may be fetched.
    public var sourcePolicy: SourceURLPolicy
    /// The folder of the caches (`sources` and `results` folders are made inside it); nil is the library's
    /// default cache root.
    public var cacheDirectory: URL?
    /// The most bytes the result cache keeps on disk; default 1 GiB, 0 turns it off.
    public var resultCacheSize: Int
    /// How many requests ask for a source, or for a result, before it is written to its disk cache (nginx's
    /// `proxy_cache_min_uses`). Default 2: an image asked for once, as most of a large site's are, costs no disk
    /// write; the second request stores it, and later ones read it. 1 stores everything on first use.
    public var cacheMinimumUses: Int
    /// How long a cached source and the results made from it are used without asking the source again; past
    /// it, the source is revalidated with its `ETag`/`Last-Modified` (a 304 keeps the cached bytes). Default one hour.
    public var sourceMaxAge: Duration
    /// The `max-age` of `Cache-Control` on successful responses, in seconds; default 3600.
    public var maxAge: Int
    /// The most bytes a source may have; default 50 MB.
    public var maximumSourceBytes: Int
    /// The most pixels a source may declare in its header; a larger one is refused before decoding (default 50 MP).
    public var maximumSourcePixelCount: Int
    /// The most pixels a result may have (default 50 MP).
    public var maximumResultPixelCount: Int
    /// The most bytes an animation's decoded frames may take (frames × width × height × 4); a larger one is
    /// served as a still image of its first frame. Default 256 MiB; 0 makes every animation still.
    public var maximumAnimationBytes: Int
    /// The longest wait for a source's connection and for each of its reads; default 10 seconds.
    public var downloadTimeout: Duration
    /// The longest a request may wait for its image, queueing, fetching and processing included; past it, 504.
    /// Default 30 seconds.
    public var requestTimeout: Duration
    /// Whether a source's own `Cache-Control` and `Expires`, when it sends either, replace the server's
    /// `Cache-Control` on its results (`IMGPROXY_CACHE_CONTROL_PASSTHROUGH`); default false.
    public var passesSourceCacheControl: Bool
    /// Whether sources are decoded at the smallest size the result needs (a JPEG at a DCT scale, …); default true,
    /// false decodes every source whole (`IMGPROXY_DISABLE_SHRINK_ON_LOAD`).
    public var shrinksOnLoad: Bool
    /// Whether a damaged source (a JPEG cut short, a PNG with a bad checksum, a GIF with a broken last record) is
    /// refused with 422 (`--strict-sources`) rather than served as a browser shows it, with `X-Image-Issues`;
    /// default false.
    public var strictSources: Bool
    /// Whether `https` sources' certificates are verified (`IMGPROXY_IGNORE_SSL_VERIFICATION` turns it off); default true.
    public var verifiesSourceCertificates: Bool
    /// How long a client connection may stay idle, waiting for a request or in the middle of one, before it is
    /// closed (`IMGPROXY_KEEP_ALIVE_TIMEOUT`, `IMGPROXY_READ_REQUEST_TIMEOUT`: the shorter); default 10 seconds.
    public var idleTimeout: Duration
    /// How long a stopping server waits for the requests in flight (`IMGPROXY_GRACEFUL_STOP_TIMEOUT`); default
    /// twice the request timeout, as imgproxy's.
    public var gracefulStopTimeout: Duration?
    /// The most redirects a source may take; default 10.
    public var maximumRedirects: Int
    /// How many images are fetched and processed at once; default the number of cores.
    public var workers: Int
    /// How many requests may wait for a worker; past it the server answers 429 with `Retry-After`. Default 100.
    public var maximumQueue: Int
    /// Whether a request without a format whose `Accept` allows WebP gets WebP (with `Vary: Accept`).
    public var autoWebP: Bool
    /// Whether a request without a format whose `Accept` allows AVIF gets AVIF (preferred to WebP).
    public var autoAVIF: Bool
    /// The encoder quality when the URL sets none (imgproxy's default, 80).
    public var defaultQuality: Int
    /// Whether a request without a format whose `Accept` allows JPEG XL gets JPEG XL (`IMGPROXY_AUTO_JXL`; preferred
    /// to AVIF and WebP, as in imgproxy).
    public var autoJXL: Bool
    /// Whether a client whose `Accept` allows JPEG XL gets it even when the URL names another format
    /// (`IMGPROXY_ENFORCE_JXL`; implies ``autoJXL``).
    public var enforceJXL: Bool
    /// Whether a client whose `Accept` allows WebP gets WebP even when the URL names another format
    /// (`IMGPROXY_ENFORCE_WEBP`; implies ``autoWebP``).
    public var enforceWebP: Bool
    /// Whether a client whose `Accept` allows AVIF gets AVIF even when the URL names another format
    /// (`IMGPROXY_ENFORCE_AVIF`; implies ``autoAVIF``).
    public var enforceAVIF: Bool
    /// The formats a result without a format may have, in order (`IMGPROXY_PREFERRED_FORMATS`): the source's when
    /// listed, else the first that keeps the result's animation and alpha. Default JPEG, PNG, GIF, WebP, AVIF
    /// (imgproxy's is JPEG, PNG, GIF: WebP and AVIF sources are kept here).
    public var preferredFormats: [OutputFormat]
    /// Rewrites of source URLs' starts (`IMGPROXY_URL_REPLACEMENTS`), applied in order before ``baseURL``.
    public var urlReplacements: [URLReplacement]
    /// Whether responses for `http(s)` sources carry `Link: <source>; rel="canonical"` (`IMGPROXY_SET_CANONICAL_HEADER`).
    public var setsCanonicalHeader: Bool
    /// Whether the `DPR` and `Width` client hints (or `Sec-CH-DPR`, `Sec-CH-Width`) set the default DPR and width of
    /// a result (`IMGPROXY_ENABLE_CLIENT_HINTS`); URL options override them. Default false.
    public var usesClientHints: Bool
    /// Whether `/` serves the playground page, to try URLs in a browser; default false.
    public var playground: Bool
    /// A token every image request must send as `Authorization: Bearer <secret>` (imgproxy's `IMGPROXY_SECRET`);
    /// nil: none needed.
    public var secret: String?
    /// The origin CORS headers allow (`Access-Control-Allow-Origin`, and `OPTIONS` preflights answered); nil: no
    /// CORS headers (imgproxy's `IMGPROXY_ALLOW_ORIGIN`).
    public var allowedOrigin: String?
    /// A path the image URLs start with (`/abc/def` for `/abc/def/%signature/…`); empty by default.
    public var pathPrefix: String
    /// A second path answering like `/health` (imgproxy's `IMGPROXY_HEALTH_CHECK_PATH`); nil: none.
    public var healthCheckPath: String?
    /// A prefix added to every source URL that does not already start with it (imgproxy's `IMGPROXY_BASE_URL`).
    public var baseURL: String?
    /// Whether responses carry an `ETag` and conditional requests are answered; default true.
    public var sendsETag: Bool
    /// Whether responses carry the source's `Last-Modified` and `If-Modified-Since` is answered; default true.
    public var sendsLastModified: Bool
    /// Whether `Content-Disposition` says `attachment` when the URL does not say; default false.
    public var returnsAttachment: Bool
    /// The quality per output format when the URL sets none (imgproxy's `IMGPROXY_FORMAT_QUALITY`; default
    /// AVIF 65, as imgproxy's); other formats use ``defaultQuality``.
    public var formatQuality: [ImageFormat: Int]
    /// Whether the EXIF orientation is applied when the URL does not say (`auto_rotate`); default true.
    public var autoRotate: Bool
    /// Whether the thumbnail embedded in a HEIC source is decoded instead of the main image when the URL does not
    /// say (`enforce_thumbnail`, imgproxy's `IMGPROXY_ENFORCE_THUMBNAIL`); default false.
    public var enforceThumbnail: Bool
    /// What results keep of their source's metadata and how the encoders work; imgproxy's defaults.
    public var encoding: Encoding
    /// The longest side a result may have, in pixels (imgproxy's `IMGPROXY_MAX_RESULT_DIMENSION`); nil: only
    /// ``maximumResultPixelCount``.
    public var maximumResultDimension: Int?
    /// The `User-Agent` sent to sources; nil: the downloader's.
    public var userAgent: String?
    /// The folder `local:///path` sources are read from (imgproxy's `IMGPROXY_LOCAL_FILESYSTEM_ROOT`); nil: no
    /// local sources. No source leaves it: `..`, escapes and symbolic links that lead out are refused.
    public var localFilesystemRoot: URL?
    /// The path prefixes `local://` sources must be under when allowed sources are listed (`local://` allows every
    /// file under the root, `local:///images/` those under `/images/`); with allowed sources but none of these, no
    /// local source is allowed.
    public var allowedLocalPrefixes: [String]
    /// The prefixes `s3://` sources must start with when allowed sources are listed (`s3://`, `s3://bucket/`).
    public var allowedS3Prefixes: [String]
    /// What separates a `local://` or `s3://` source's path from its query (`?versionId=`): `?` by default, empty for
    /// none (`IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`).
    public var sourceQuerySeparator: String
    /// Whether `s3://bucket/key` sources are read (imgproxy's `IMGPROXY_USE_S3`); default false.
    public var usesS3: Bool
    /// A custom S3 endpoint, addressed path-style (`IMGPROXY_S3_ENDPOINT`); nil: AWS, virtual-hosted.
    public var s3Endpoint: URL?
    /// Whether ``s3Endpoint`` is addressed path-style (`endpoint/bucket/key`, the default) or virtual-hosted
    /// (`bucket.endpoint/key`; `IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE=false`).
    public var s3EndpointUsesPathStyle: Bool
    /// The S3 region requests are signed for (`IMGPROXY_S3_REGION`); default `us-east-1`.
    public var s3Region: String
    /// The environment S3 credentials are read from (`AWS_ACCESS_KEY_ID`, …, or the shared credentials file it
    /// names); default the process's.
    public var s3Environment: [String: String]
    /// Source formats served as they are when the result would be in the same format, by extension (`jpg`,
    /// `png`, `gif`, `webp`, `avif`, `svg`, …; imgproxy's `IMGPROXY_SKIP_PROCESSING_FORMATS`); empty by default.
    public var skipProcessingFormats: Set<String>
    /// The prefix of the metrics published under imgproxy's names (`IMGPROXY_PROMETHEUS_NAMESPACE`): `imgproxy`
    /// gives `imgproxy_requests_total`; empty (the default) gives `requests_total`.
    public var metricsNamespace: String
    /// The image the `watermark` option lays over results (imgproxy's `IMGPROXY_WATERMARK_DATA`, `_PATH`, `_URL`);
    /// nil: `watermark` has no effect.
    public var watermark: ConfiguredImage?
    /// The base opacity of the watermark, 0–1, multiplied by each URL's (`IMGPROXY_WATERMARK_OPACITY`); default 1.
    public var watermarkOpacity: Double
    /// The image served, processed with the request's options, when the source cannot be fetched or decoded
    /// (imgproxy's `IMGPROXY_FALLBACK_IMAGE_DATA`, `_PATH`, `_URL`); nil: the error is answered.
    public var fallbackImage: ConfiguredImage?
    /// The status of a fallback image's response (`IMGPROXY_FALLBACK_IMAGE_HTTP_CODE`); default 200, nil: the
    /// status the source's error would have had.
    public var fallbackImageStatus: Int?
    /// The `max-age` of a fallback image's response, in seconds (`IMGPROXY_FALLBACK_IMAGE_TTL`); nil: ``maxAge``.
    public var fallbackImageMaxAge: Int?
    /// Whether URLs may lower the limits for themselves with imgproxy's security options (`max_src_resolution`,
    /// …; `IMGPROXY_ALLOW_SECURITY_OPTIONS`); default false, and a URL using one is refused with 403.
    public var allowsSecurityOptions: Bool
    /// The most frames of an animation that are processed; the rest are dropped, and 1 makes every result still
    /// (imgproxy's `IMGPROXY_MAX_ANIMATION_FRAMES`). nil (the default): every frame, within ``maximumAnimationBytes``.
    public var maximumAnimationFrames: Int?
    /// The most pixels one frame of an animation may have (`IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION`); nil (the
    /// default): the frames processed together may have at most ``maximumSourcePixelCount``, as in imgproxy.
    public var maximumAnimationFramePixelCount: Int?
    /// The URL grammar the server reads (`--dialect`); default ``URLDialect/imgproxy``.
    public var dialect: URLDialect = .imgproxy
    /// What the thumbor dialect reads: its security key, unsafe URLs, size limits.
    public var thumbor = ThumborServerSettings()
    /// What fetches sources; nil is the server's own HTTP client, which checks every address it connects to
    /// against ``sourcePolicy``. A loader given here is trusted: it bypasses that connect-time check.
    public var loader: (any ImageLoading)?

    /// Creates a configuration; by default on `127.0.0.1:8080`, unsigned, any public source.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        signature: URLSignatureVerifier = URLSignatureVerifier(),
        presets: ProcessingPresets = ProcessingPresets(),
        sourcePolicy: SourceURLPolicy = SourceURLPolicy(),
        cacheDirectory: URL? = nil,
        maxAge: Int = 3600,
        maximumSourcePixelCount: Int = 50_000_000,
        maximumResultPixelCount: Int = 50_000_000,
        defaultQuality: Int = 80,
        loader: (any ImageLoading)? = nil
    ) {
        self.host = host
        self.port = port
        self.signature = signature
        self.presets = presets
        self.sourcePolicy = sourcePolicy
        self.cacheDirectory = cacheDirectory
        self.resultCacheSize = 1 << 30
        self.cacheMinimumUses = 2
        self.sourceMaxAge = .seconds(3600)
        self.maxAge = maxAge
        self.maximumSourceBytes = 50_000_000
        self.maximumSourcePixelCount = maximumSourcePixelCount
        self.maximumResultPixelCount = maximumResultPixelCount
        self.maximumAnimationBytes = 256 << 20
        self.downloadTimeout = .seconds(10)
        self.requestTimeout = .seconds(30)
        self.maximumRedirects = 10
        self.verifiesSourceCertificates = true
        self.strictSources = false
        self.shrinksOnLoad = true
        self.passesSourceCacheControl = false
        self.idleTimeout = .seconds(10)
        self.gracefulStopTimeout = nil
        self.workers = ProcessInfo.processInfo.activeProcessorCount
        self.maximumQueue = 100
        self.autoWebP = false
        self.autoAVIF = false
        self.usesClientHints = false
        self.enforceWebP = false
        self.autoJXL = false
        self.enforceJXL = false
        self.enforceAVIF = false
        self.preferredFormats = [.jpeg, .png, .gif, .webp, .avif]
        self.urlReplacements = []
        self.setsCanonicalHeader = false
        self.defaultQuality = defaultQuality
        self.playground = false
        self.secret = nil
        self.allowedOrigin = nil
        self.pathPrefix = ""
        self.healthCheckPath = nil
        self.baseURL = nil
        self.sendsETag = true
        self.sendsLastModified = true
        self.returnsAttachment = false
        self.formatQuality = [.avif: 65]
        self.autoRotate = true
        self.enforceThumbnail = false
        self.encoding = Encoding()
        self.maximumResultDimension = nil
        self.userAgent = nil
        self.skipProcessingFormats = []
        self.localFilesystemRoot = nil
        self.allowedLocalPrefixes = []
        self.usesS3 = false
        self.sourceQuerySeparator = "?"
        self.allowedS3Prefixes = []
        self.s3Endpoint = nil
        self.s3Region = "us-east-1"
        self.s3EndpointUsesPathStyle = true
        self.s3Environment = ProcessInfo.processInfo.environment
        self.metricsNamespace = ""
        self.onlyPresets = false
        self.allowedProcessingOptions = []
        self.etagBuster = ""
        self.maximumClients = 2048
        self.base64SourceIncludesFilename = false
        self.argumentsSeparator = ":"
        self.watermark = nil
        self.watermarkOpacity = 1
        self.fallbackImage = nil
        self.fallbackImageStatus = 200
        self.fallbackImageMaxAge = nil
        self.allowsSecurityOptions = false
        self.maximumAnimationFrames = nil
        self.maximumAnimationFramePixelCount = nil
        self.loader = loader
    }
}
