/// Per-request flags for ``ImageDownloader`` (the bit values are the seeds').
///
/// ```swift
/// let result = try await downloader.image(for: url, options: [.highPriority])
/// ```
public struct DownloadOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int

    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Start after normal and high priority downloads.
    public static let lowPriority = DownloadOptions(rawValue: 1 << 0)
    /// Hand the bytes so far to the caller's progress callback (``DownloadProgress/data``), so that partial
    /// images can be decoded while bytes arrive; ``ImageManager`` does it with ``ImageLoadOptions/progressiveLoad``.
    public static let progressiveLoad = DownloadOptions(rawValue: 1 << 1)
    /// Send and store cookies with the downloader's in-memory ``ImageDownloader/cookies`` jar.
    public static let handleCookies = DownloadOptions(rawValue: 1 << 5)
    /// Accept untrusted TLS certificates for this request only.
    public static let allowInvalidSSLCertificates = DownloadOptions(rawValue: 1 << 6)
    /// Start before normal and low priority downloads; wins over ``lowPriority``.
    public static let highPriority = DownloadOptions(rawValue: 1 << 7)
    /// Scale images larger than `ImageDecodingOptions.defaultScaleDownLimitBytes` down while
    /// decoding, unless the decoding options already set a limit.
    public static let scaleDownLargeImages = DownloadOptions(rawValue: 1 << 8)
}
