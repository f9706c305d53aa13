public import Foundation

/// What carries a download's bytes when the downloader's own HTTP/1.1 client should not (the seeds' pluggable
/// download operation): another HTTP stack, a proxy protocol, a test double.
///
/// The transport only sends one request and streams the response. Everything else stays the downloader's:
/// one transfer per URL however many callers ask, the concurrency limit, priorities and FIFO/LIFO, the
/// status, content-type and size checks, progress, progressive images, retries, events, cookies and the
/// request and response modifiers. Set it in ``ImageDownloader/Configuration/transport``.
///
/// The transport follows redirects itself (at most ``ImageDownloader/Configuration/maximumRedirects``) and
/// applies the timeout it is given; ``DownloadOptions/allowInvalidSSLCertificates`` does not reach it. When
/// the download is cancelled, the task iterating the body is cancelled: stop sending chunks then.
///
/// ```swift
/// struct FolderTransport: DownloadTransport {
///     let folder: URL
///     func send(_ request: DownloadRequest, timeout: Duration) async throws -> (DownloadResponse, AsyncThrowingStream<Data, any Error>) {
///         let bytes = try Data(contentsOf: folder.appendingPathComponent(request.url.lastPathComponent))
///         let head = DownloadResponse(url: request.url, statusCode: 200, headers: ["content-type": "image/png"])
///         return (head, AsyncThrowingStream { $0.yield(bytes); $0.finish() })
///     }
/// }
/// var configuration = ImageDownloader.Configuration()
/// configuration.transport = FolderTransport(folder: URL(fileURLWithPath: "/srv/images"))
/// ```
public protocol DownloadTransport: Sendable {
    /// Sends `request` (a `GET`) and returns the response head and its body in chunks, as they arrive.
    ///
    /// - Parameters:
    ///   - request: The URL and the headers the downloader built (configured headers, credentials, validators,
    ///     cookies, after the headers filter and the request modifier).
    ///   - timeout: The longest wait for the connection and for each read.
    /// - Returns: The head (header names in any case) and the body; an error thrown from the body fails the
    ///   download as a network error.
    /// - Throws: Whatever failed before the head arrived; ``ImageDownloadError`` values are kept as they are,
    ///   anything else becomes ``ImageDownloadError/Code/network`` whose message starts "the transport failed".
    func send(_ request: DownloadRequest, timeout: Duration) async throws -> (DownloadResponse, AsyncThrowingStream<Data, any Error>)
}
