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
    /// Which sources may be fetched.
    public var sourcePolicy: SourceURLPolicy
    /// The folder of the caches (`sources` and `results` folders are made inside it); nil is the library's
    /// default cache root.
    public var cacheDirectory: URL?
    /// The most bytes the result cache keeps on disk; default 1 GiB, 0 turns it off.
    public var resultCacheSize: Int
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
    /// Whether `s3://bucket/key` sources are read (imgproxy's `IMGPROXY_USE_S3`); default false.
    public var usesS3: Bool
    /// A custom S3 endpoint, addressed path-style (`IMGPROXY_S3_ENDPOINT`); nil: AWS, virtual-hosted.
    public var s3Endpoint: URL?
    /// The S3 region requests are signed for (`IMGPROXY_S3_REGION`); default `us-east-1`.
    public var s3Region: String
    /// The environment S3 credentials are read from (`AWS_ACCESS_KEY_ID`, …, or the shared credentials file it
    /// names); default the process's.
    public var s3Environment: [String: String]
    /// Source formats served as they are when the result would be in the same format, by extension (`jpg`,
    /// `png`, `gif`, `webp`, `avif`, `svg`, …; imgproxy's `IMGPROXY_SKIP_PROCESSING_FORMATS`); empty by default.
    public var skipProcessingFormats: Set<String>
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
        self.sourceMaxAge = .seconds(3600)
        self.maxAge = maxAge
        self.maximumSourceBytes = 50_000_000
        self.maximumSourcePixelCount = maximumSourcePixelCount
        self.maximumResultPixelCount = maximumResultPixelCount
        self.maximumAnimationBytes = 256 << 20
        self.downloadTimeout = .seconds(10)
        self.requestTimeout = .seconds(30)
        self.maximumRedirects = 10
        self.workers = ProcessInfo.processInfo.activeProcessorCount
        self.maximumQueue = 100
        self.autoWebP = false
        self.autoAVIF = false
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
        self.encoding = Encoding()
        self.maximumResultDimension = nil
        self.userAgent = nil
        self.skipProcessingFormats = []
        self.localFilesystemRoot = nil
        self.allowedLocalPrefixes = []
        self.usesS3 = false
        self.allowedS3Prefixes = []
        self.s3Endpoint = nil
        self.s3Region = "us-east-1"
        self.s3Environment = ProcessInfo.processInfo.environment
        self.loader = loader
    }
}
