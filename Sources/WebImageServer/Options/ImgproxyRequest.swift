/// An imgproxy URL taken apart: its signature, the signed part of the path, the options and the source URL.
public struct ImgproxyRequest: Sendable, Hashable {
    /// The first path segment, as written (imgproxy's `%signature`; anything when signatures are off).
    public var signature: String
    /// The path after the signature, starting with `/`, exactly as received: what the signature covers.
    public var signedPath: String
    /// The processing options, presets and the URL's extension applied.
    public var options: ProcessingOptions
    /// The source image's URL, decoded (from base64 or percent-encoding); not yet checked against any policy.
    public var sourceURL: String
    /// How the source URL was written.
    public var sourceEncoding: SourceEncoding

    /// The two ways imgproxy URLs carry their source.
    public enum SourceEncoding: Sendable, Hashable {
        /// `/plain/%source_url@%extension`, percent-encoded or not.
        case plain
        /// `/%base64url_source.%extension`, possibly split by `/`.
        case base64
    }

    /// Creates a parsed request.
    public init(signature: String, signedPath: String, options: ProcessingOptions, sourceURL: String, sourceEncoding: SourceEncoding) {
        self.signature = signature
        self.signedPath = signedPath
        self.options = options
        self.sourceURL = sourceURL
        self.sourceEncoding = sourceEncoding
    }
}
