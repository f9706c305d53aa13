/// The URL grammar a server reads (`--dialect`); one per process. The dialect is only the grammar and what its
/// options mean: both map onto the same ``ProcessingOptions`` and run the same pipeline.
public enum URLDialect: String, Sendable, Hashable, CaseIterable {
    /// imgproxy's URLs (`/%signature/%options/plain/%source@%ext`); the default.
    case imgproxy
    /// thumbor's URLs (`/unsafe/fit-in/300x200/filters:quality(80)/%image`), signed as libthumbor signs them.
    case thumbor
}

/// The settings only the thumbor dialect reads (from `--thumbor-*` options or a `thumbor.conf`).
public struct ThumborServerSettings: Sendable, Hashable {
    /// thumbor's `SECURITY_KEY`, which signs URLs (HMAC-SHA1); nil: no signed URL is valid.
    public var securityKey: String?
    /// Whether `/unsafe/` URLs are answered (thumbor's `ALLOW_UNSAFE_URL`); default false, safer than thumbor's.
    public var allowsUnsafeURLs = false
    /// thumbor's `MAX_WIDTH`: a larger requested width is lowered to it, and a source shrunk to it once loaded
    /// by thumbor's rule (only the side whose excess is larger); 0: no limit.
    public var maximumWidth = 0
    /// thumbor's `MAX_HEIGHT`: a larger requested height is lowered to it, and a source shrunk to it once loaded
    /// as for ``maximumWidth``; 0: no limit.
    public var maximumHeight = 0

    /// thumbor's defaults, unsafe URLs refused.
    public init() {}
}
