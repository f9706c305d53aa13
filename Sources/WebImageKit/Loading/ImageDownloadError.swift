public import Foundation
public import WebImageCore

/// Why a download failed: a code to match on, a message for people and the underlying error, if any.
///
/// ```swift
/// do {
///     _ = try await downloader.image(for: url)
/// } catch let error as ImageDownloadError where error.code == .badStatus(404) {
///     // the server has no such image
/// }
/// ```
public struct ImageDownloadError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: Hashable, Sendable, CustomStringConvertible {
        /// The URL is not one the downloader can fetch (no host, or a scheme other than http/https).
        case invalidURL
        /// The response status is outside the acceptable range; carries the status code.
        case badStatus(Int)
        /// The response is not an image: its content type is not acceptable and its bytes are no known format.
        case badContentType
        /// The response is larger than ``ImageDownloader/Configuration/maximumResponseSize``.
        case tooLarge
        /// The server did not connect or send data within the timeout.
        case timeout
        /// The download was cancelled (by ``ImageDownloader/cancelAll()``, shutdown, or task cancellation).
        case cancelled
        /// The connection failed; ``ImageDownloadError/underlying`` holds the transport error.
        case network
        /// The TLS handshake failed, most often because the server's certificate is not trusted (self-signed,
        /// expired, another host's); permanent. ``DownloadOptions/allowInvalidSSLCertificates`` turns
        /// certificate verification off for one request.
        case tlsFailed
        /// Redirects went round in a loop or exceeded ``ImageDownloader/Configuration/maximumRedirects``.
        case tooManyRedirects
        /// The bytes arrived but could not be decoded; ``ImageDownloadError/underlying`` is the `ImageCodingError`.
        case decodeFailed
        /// The server sent a successful response with no body.
        case emptyBody
        /// A `file:` URL names no readable file.
        case notFound
        /// ``ImageDownloader/Configuration/responseModifier`` rejected the response.
        case rejected
        /// ``ImageDownloader/Configuration/decryptor`` threw; ``ImageDownloadError/underlying`` is its error.
        case decryptionFailed

        /// The code's name, with its status for ``badStatus(_:)``.
        public var description: String {
            switch self {
            case .invalidURL: "invalidURL"
            case .badStatus(let status): "badStatus(\(status))"
            case .badContentType: "badContentType"
            case .tooLarge: "tooLarge"
            case .timeout: "timeout"
            case .cancelled: "cancelled"
            case .network: "network"
            case .tlsFailed: "tlsFailed"
            case .tooManyRedirects: "tooManyRedirects"
            case .decodeFailed: "decodeFailed"
            case .emptyBody: "emptyBody"
            case .notFound: "notFound"
            case .rejected: "rejected"
            case .decryptionFailed: "decryptionFailed"
            }
        }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A human-readable explanation.
    public let message: String
    /// The error that caused this one: a transport error for ``Code/network``, an `ImageCodingError` for ``Code/decodeFailed``.
    public let underlying: (any Error & Sendable)?
    /// How long the server asked the client to wait before retrying (the `Retry-After` of a 429 or 503, in
    /// seconds or as an HTTP date).
    public let retryAfter: Duration?

    /// Creates an error.
    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil, retryAfter: Duration? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.retryAfter = retryAfter
    }

    /// Whether trying again later may succeed: timeouts, network failures (resets, refused connections),
    /// 408, 429, 502, 503 and 504. Other statuses, decode failures, content-type and size errors are
    /// permanent; a manager's failed-URL list should only remember permanent failures.
    public var isTransient: Bool {
        switch code {
        case .timeout, .network: true
        case .badStatus(let status): [408, 429, 502, 503, 504].contains(status)
        case .invalidURL, .badContentType, .tooLarge, .cancelled, .tlsFailed, .tooManyRedirects, .decodeFailed, .emptyBody, .notFound, .rejected, .decryptionFailed: false
        }
    }

    /// The decoding error behind a ``Code/decodeFailed`` error.
    public var codingError: ImageCodingError? { underlying as? ImageCodingError }

    /// The code and the message, then the underlying error if any.
    public var description: String {
        var text = "\(code): \(message)"
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

extension ImageDownloadError {
    /// The error delivered to subscribers removed by ``ImageDownloader/cancelAll()`` or shutdown.
    static func cancelled(_ message: String = "the download was cancelled") -> ImageDownloadError {
        ImageDownloadError(.cancelled, message)
    }
}

extension ImageDownloadError: LocalizedError {
    /// The same text as ``description``, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
