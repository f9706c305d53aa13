import HTTPTypes
import Hummingbird
import WebImageKit

/// Why the server answers without an image: an HTTP status and one line for the client that never repeats
/// the source URL or internal details, plus any header the status needs (`Retry-After`, `Allow`).
///
/// Every step throws it; Hummingbird renders it (``response(from:context:)``) as plain text that is never cached.
struct ServerError: HTTPResponseError, Sendable, Equatable {
    let status: HTTPResponse.Status
    /// The response body's one line.
    let message: String
    /// Headers the status calls for.
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// The same error with one more header.
    func adding(_ name: HTTPField.Name, _ value: String) -> ServerError {
        var error = self
        error.headers[name] = value
        return error
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Self.text(status, message, extra: headers)
    }

    /// A plain-text response of one line, never cached.
    static func text(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}

extension ServerError {
    /// A load error as the client should see it: 403 for a source the guard refused, 404 for one that is not
    /// there, 422 for one too large or not an image the server decodes, 502 for every other failure of the source.
    init(_ error: ImageLoadError, maximumSourcePixelCount: Int) {
        if let refusal = error.downloadError?.underlying as? SourceURLError {
            self.init(.forbidden, refusal.message)
            return
        }
        let codingError = error.downloadError?.codingError ?? error.underlying as? ImageCodingError
        if let codingError {
            self.init(codingError, maximumSourcePixelCount: maximumSourcePixelCount)
            return
        }
        switch (error.code, error.downloadError?.code) {
        case (.cancelled, _):
            self.init(.serviceUnavailable, "the request was cancelled")
        case (.loadFailed, .badStatus(404)?), (.loadFailed, .badStatus(410)?):
            self.init(.notFound, "the source image was not found")
        case (.loadFailed, .tooLarge?):
            self.init(.unprocessableContent, "the source image is larger than the server accepts")
        case (.loadFailed, .badContentType?), (.loadFailed, .decodeFailed?), (.decodeFailed, _):
            self.init(.unprocessableContent, "the source is not an image the server can decode")
        default:
            self.init(.badGateway, "the source image could not be loaded")
        }
    }

    /// A decoding error as the client should see it: 422, naming the pixel limit when that was the reason.
    init(_ error: ImageCodingError, maximumSourcePixelCount: Int) {
        if error.code == .imageTooLarge || error.code == .animationTooLarge {
            self.init(.unprocessableContent, "the source image has more than \(maximumSourcePixelCount) pixels")
        } else {
            self.init(.unprocessableContent, "the source is not an image the server can decode")
        }
    }

    /// The server is busy: 429 with `Retry-After`.
    static let busy = ServerError(.tooManyRequests, "the server is busy; try again shortly", headers: [.retryAfter: "1"])
    /// The request outlived the request timeout: 504.
    static let timedOut = ServerError(.gatewayTimeout, "the image took too long to fetch and process")
}
