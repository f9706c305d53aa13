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

    /// Creates a configuration; by default on `127.0.0.1:8080`, unsigned, any public source.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        signature: URLSignatureVerifier = URLSignatureVerifier(),
        presets: ProcessingPresets = ProcessingPresets(),
        sourcePolicy: SourceURLPolicy = SourceURLPolicy()
    ) {
        self.host = host
        self.port = port
        self.signature = signature
        self.presets = presets
        self.sourcePolicy = sourcePolicy
    }
}
