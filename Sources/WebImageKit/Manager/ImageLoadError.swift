public import Foundation

/// Why ``ImageManager`` could not deliver an image: a code, a message, and the underlying error.
public struct ImageLoadError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Hashable, Sendable, CustomStringConvertible {
        /// The URL is empty or has no loader.
        case invalidURL
        /// The URL failed before with a permanent error and ``ImageLoadOptions/retryFailed`` was not given.
        case blockedURL
        /// ``ImageLoadOptions/fromCacheOnly`` and the image is not cached.
        case notCached
        /// The delegate refused the download.
        case downloadNotAllowed
        /// The load was cancelled.
        case cancelled
        /// The loader failed; ``ImageLoadError/downloadError`` says how.
        case loadFailed
        /// Cached original bytes could not be decoded.
        case decodeFailed
        /// A transformer threw.
        case transformFailed

        /// The code's name.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A sentence for people.
    public let message: String
    /// The URL being loaded.
    public let url: URL?
    /// The error underneath, if any (an ``ImageDownloadError`` for ``Code/loadFailed``).
    public let underlying: (any Error & Sendable)?

    /// Creates an error.
    init(_ code: Code, _ message: String, url: URL?, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.url = url
        self.underlying = underlying
    }

    /// The loader's error, for ``Code/loadFailed``.
    public var downloadError: ImageDownloadError? { underlying as? ImageDownloadError }

    /// Whether trying again later may succeed: cancellations and the loader's transient errors (timeouts,
    /// resets, 5xx, 429). Permanent errors put the URL on the failed-URL list.
    public var isTransient: Bool {
        switch code {
        case .cancelled: true
        case .loadFailed: downloadError?.isTransient ?? false
        default: false
        }
    }

    /// The code, the message and the URL, then the underlying error if any.
    public var description: String {
        var text = "\(code): \(message)"
        if let url { text += " (\(url.absoluteString))" }
        if let underlying { text += ": \(underlying)" }
        return text
    }

    static func cancelled(_ url: URL?) -> ImageLoadError {
        ImageLoadError(.cancelled, "the load was cancelled", url: url)
    }
}

extension ImageLoadError: LocalizedError {
    /// The same text as ``description``, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
