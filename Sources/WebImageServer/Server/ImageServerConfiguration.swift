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
    /// The folder of the source cache (a `sources` folder is made inside it); nil is the library's default
    /// cache root.
    public var cacheDirectory: URL?
    /// The `max-age` of `Cache-Control` on successful responses, in seconds; default 3600.
    public var maxAge: Int
    /// The most pixels a source may declare in its header; a larger one is refused before decoding (default 50 MP).
    public var maximumSourcePixelCount: Int
    /// The most pixels a result may have (default 50 MP).
    public var maximumResultPixelCount: Int
    /// The encoder quality when the URL sets none (imgproxy's default, 80).
    public var defaultQuality: Int
    /// What fetches sources; nil is the manager's default loader (`ImageDownloader.shared` for HTTP).
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
        self.maxAge = maxAge
        self.maximumSourcePixelCount = maximumSourcePixelCount
        self.maximumResultPixelCount = maximumResultPixelCount
        self.defaultQuality = defaultQuality
        self.loader = loader
    }
}
