/// Per-request flags for ``ImageDownloader`` (SPEC DL-01…DL-09; the bit values are the seeds').
///
/// ```swift
/// let result = try await downloader.image(for: url, options: [.highPriority])
/// ```
public struct DownloadOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int

    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Start after normal and high priority downloads (SPEC DL-01).
    public static let lowPriority = DownloadOptions(rawValue: 1 << 0)
    /// Deliver partial images while bytes arrive to the `partial` callback (SPEC DL-02, K-11).
    public static let progressiveLoad = DownloadOptions(rawValue: 1 << 1)
    /// Accepted for the seeds' sake: conditional requests are made with ``ImageDownloader/revalidate(_:validators:options:decoding:progress:)`` (SPEC DL-03).
    public static let useURLCache = DownloadOptions(rawValue: 1 << 2)
    /// Accepted for the seeds' sake: ``RevalidationResult/notModified(_:)`` is how "not modified" is reported (SPEC DL-04).
    public static let ignoreCachedResponse = DownloadOptions(rawValue: 1 << 3)
    /// Has no meaning on Linux, where a process has no background state: accepted and ignored (SPEC DL-05).
    public static let continueInBackground = DownloadOptions(rawValue: 1 << 4)
    /// Send and store cookies with the downloader's in-memory ``ImageDownloader/cookies`` jar (SPEC DL-06, DL-53).
    public static let handleCookies = DownloadOptions(rawValue: 1 << 5)
    /// Accept untrusted TLS certificates for this request only (SPEC DL-07, section 16 note 1).
    public static let allowInvalidSSLCertificates = DownloadOptions(rawValue: 1 << 6)
    /// Start before normal and low priority downloads; wins over ``lowPriority`` (SPEC DL-08).
    public static let highPriority = DownloadOptions(rawValue: 1 << 7)
    /// Scale images larger than `ImageDecodingOptions.defaultScaleDownLimitBytes` down while
    /// decoding, unless the decoding options already set a limit (SPEC DL-09).
    public static let scaleDownLargeImages = DownloadOptions(rawValue: 1 << 8)
}
