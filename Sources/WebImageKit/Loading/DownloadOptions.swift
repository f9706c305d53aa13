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
    /// Hand the bytes so far to the caller's progress callback (``DownloadProgress/data``), so that partial
    /// images can be decoded while bytes arrive (SPEC DL-02, K-11); ``ImageManager`` does it with ``ImageLoadOptions/progressiveLoad``.
    public static let progressiveLoad = DownloadOptions(rawValue: 1 << 1)
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
