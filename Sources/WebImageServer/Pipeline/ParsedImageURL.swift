/// What the "parse" step reads from a URL in either dialect, before the source is checked: one set of
/// processing options, the source URL, and what the URL says about the answer itself.
struct ParsedImageURL: Sendable {
    /// The processing options.
    var options: ProcessingOptions
    /// The source image's URL, decoded; not yet checked against any policy.
    var sourceURL: String
    /// The URL's own `Cache-Control` max-age (thumbor's `max_age` filter); nil: the server's.
    var maxAge: Int?
    /// thumbor's `meta/`: the answer is JSON about the operations, naming the image so; nil: the image.
    var metadataImageURL: String?
}
