import Foundation
import HTTPTypes
import Hummingbird
import Logging
import WebImageCore

/// Answers imgproxy URLs: checks the signature (403), parses the options (400) and checks the source (400 or
/// 403), then answers `If-None-Match` without processing when it can (304), or gets the result
/// (``ImageProcessor``): 200 with `Content-Type`, `Content-Length`, `Cache-Control: public, max-age=…`, `ETag`,
/// `Last-Modified` and `Content-Disposition`; or 404, 422, 429, 501, 502 or 504 saying why not.
///
/// Error bodies are one line of plain text that never repeats the source URL; they are never cached. Every
/// request gets one log line with its request id (`X-Request-ID` when the client sent a sane one), echoed
/// in the response.
struct ImageRequestResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let signature: URLSignatureVerifier
    let parser: ImgproxyURLParser
    let sourcePolicy: SourceURLPolicy
    let processor: ImageProcessor
    let negotiation: AcceptNegotiation
    let state: ServerState
    let metrics: ServerMetrics
    let maxAge: Int
    let logger: Logger
    /// Whether `/` serves the ``PlaygroundPage``.
    let playground: Bool

    init(configuration: ImageServerConfiguration, state: ServerState, metrics: ServerMetrics, logger: Logger) throws {
        signature = configuration.signature
        parser = ImgproxyURLParser(presets: configuration.presets)
        sourcePolicy = configuration.sourcePolicy
        processor = try ImageProcessor(configuration: configuration, metrics: metrics, logger: logger)
        negotiation = AcceptNegotiation(autoAVIF: configuration.autoAVIF, autoWebP: configuration.autoWebP)
        self.state = state
        self.metrics = metrics
        maxAge = configuration.maxAge
        self.logger = logger
        playground = configuration.playground
    }

    /// `X-Request-ID`.
    static let requestIDField = HTTPField.Name("X-Request-ID")!

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        let requestID = Self.requestID(request.headers[Self.requestIDField])
        var response = await answer(request)
        response.headers[Self.requestIDField] = requestID
        if request.method == .head {
            // The headers of a GET, Content-Length included, and no body.
            let length = response.headers[.contentLength].flatMap { Int($0) }
            response.body = ResponseBody(contentLength: length) { writer in try await writer.finish(nil) }
        }
        let duration = ContinuousClock.now - start
        metrics.recordRequest(status: response.status.code, duration: duration)
        logger.info("request", metadata: [
            "request_id": "\(requestID)",
            "method": "\(request.method)",
            "path": "\(Self.loggable(request.head.path ?? "/"))",
            "status": "\(response.status.code)",
            "bytes": "\(response.headers[.contentLength] ?? "0")",
            "ms": "\(String(format: "%.1f", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000))",
        ])
        return response
    }

    private func answer(_ request: Request) async -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.text(.methodNotAllowed, "only GET and HEAD are supported", extra: [.allow: "GET, HEAD"])
        }
        // The raw path, still percent-encoded, without the query: the bytes the signature covers.
        let target = request.head.path ?? "/"
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        if path == "/health" {
            return state.isDraining ? Self.text(.serviceUnavailable, "draining") : Self.text(.ok, "ok")
        }
        if path == "/", playground { return PlaygroundPage.response(signing: signature.isEnabled) }

        let (signatureSegment, signedPath) = ImgproxyURLParser.splitSignature(path) ?? ("", "")
        guard signature.isValid(signature: signatureSegment, signedPath: signedPath) else {
            return Self.text(.forbidden, "invalid signature")
        }
        let parsed: ImgproxyRequest
        do {
            parsed = try parser.parse(path: path)
        } catch {
            return Self.text(.badRequest, error.message)
        }
        let checked: SourceURL
        do {
            checked = try sourcePolicy.check(parsed.sourceURL)
        } catch {
            switch error.code {
            case .notAllowed, .refusedAddress: return Self.text(.forbidden, error.message)
            case .unsupportedScheme, .malformed: return Self.text(.badRequest, error.message)
            }
        }
        guard let source = URL(string: parsed.sourceURL) else { return Self.text(.badRequest, "the source URL is not valid") }

        // A negotiated format counts as asked for: the transformer then knows it (extend pads with
        // transparency for WebP and AVIF, white for JPEG).
        var options = parsed.options
        var extra: HTTPFields = [:]
        if options.format == nil, negotiation.isEnabled {
            options.format = negotiation.format(accept: request.headers[.accept])
            extra[.vary] = "Accept"
        }
        let format = options.format?.imageFormat

        let key = ResultCache.key(source: source.absoluteString, options: options, format: format)
        let ifNoneMatch = request.headers[.ifNoneMatch]
        if let ifNoneMatch, let etag = await processor.knownETag(forKey: key, source: source), Self.matches(ifNoneMatch, etag) {
            return notModified(etag: etag, extra: extra)
        }
        let processed: ProcessedImage
        do {
            processed = try await processor.result(for: source, options: options, format: format)
        } catch {
            if error.status == 429 { extra[.retryAfter] = "1" }
            return Self.text(HTTPResponse.Status(code: error.status), error.message, extra: extra)
        }
        if let ifNoneMatch, Self.matches(ifNoneMatch, processed.etag) {
            return notModified(etag: processed.etag, extra: extra)
        }
        var headers: HTTPFields = [
            .contentType: processed.format.mimeType,
            .contentLength: "\(processed.data.count)",
            .cacheControl: "public, max-age=\(maxAge)",
            .eTag: processed.etag,
            .contentDisposition: ContentDisposition.value(options: parsed.options, sourcePath: checked.path, format: processed.format),
        ]
        if let lastModified = processed.lastModified { headers[.lastModified] = lastModified }
        headers.append(contentsOf: extra)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: processed.data)))
    }

    private func notModified(etag: String, extra: HTTPFields) -> Response {
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "public, max-age=\(maxAge)"]
        headers.append(contentsOf: extra)
        return Response(status: .notModified, headers: headers)
    }

    /// Whether an `If-None-Match` value names `etag` (`*`, or one of a list; weak tags compare weakly).
    static func matches(_ ifNoneMatch: String, _ etag: String) -> Bool {
        let tags = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return tags.contains { $0 == "*" || $0 == etag || $0 == "W/" + etag }
    }

    /// The client's request id when it is short and plain, else a new random one.
    static func requestID(_ given: String?) -> String {
        if let given, (1...64).contains(given.utf8.count),
            given.utf8.allSatisfy({ $0 < 0x80 && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")) })
        {
            return given
        }
        return (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// A path for the log: at most 512 characters.
    static func loggable(_ path: String) -> String {
        path.count > 512 ? String(path.prefix(512)) + "…" : path
    }

    /// A plain-text response of one line, never cached.
    static func text(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
