import Foundation
import Hummingbird
import Logging
import WebImageCore

/// Answers imgproxy URLs: checks the signature (403), parses the options (400) and checks the source (400 or
/// 403), then fetches and processes the image (``ImageProcessor``): 200 with `Cache-Control: public,
/// max-age=…`, or 404, 422, 501 or 502 saying why not.
///
/// Error bodies are one line of plain text that never repeats the source URL; they are never cached.
struct ImageRequestResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let signature: URLSignatureVerifier
    let parser: ImgproxyURLParser
    let sourcePolicy: SourceURLPolicy
    let processor: ImageProcessor
    let maxAge: Int

    init(configuration: ImageServerConfiguration, logger: Logger) {
        signature = configuration.signature
        parser = ImgproxyURLParser(presets: configuration.presets)
        sourcePolicy = configuration.sourcePolicy
        processor = ImageProcessor(configuration: configuration, logger: logger)
        maxAge = configuration.maxAge
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Self.text(.methodNotAllowed, "only GET and HEAD are supported", extra: [.allow: "GET, HEAD"])
        }
        // The raw path, still percent-encoded, without the query: the bytes the signature covers.
        let target = request.head.path ?? "/"
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        if path == "/health" { return Self.text(.ok, "ok") }

        let (signatureSegment, signedPath) = ImgproxyURLParser.splitSignature(path) ?? ("", "")
        guard signature.isValid(signature: signatureSegment, signedPath: signedPath) else {
            context.logger.info("refused: invalid signature")
            return Self.text(.forbidden, "invalid signature")
        }
        let parsed: ImgproxyRequest
        do {
            parsed = try parser.parse(path: path)
        } catch {
            return Self.text(.badRequest, error.message)
        }
        do {
            _ = try sourcePolicy.check(parsed.sourceURL)
        } catch {
            switch error.code {
            case .notAllowed, .refusedAddress: return Self.text(.forbidden, error.message)
            case .unsupportedScheme, .malformed: return Self.text(.badRequest, error.message)
            }
        }
        guard let source = URL(string: parsed.sourceURL) else { return Self.text(.badRequest, "the source URL is not valid") }
        let processed: ProcessedImage
        do {
            processed = try await processor.process(source, options: parsed.options)
        } catch {
            context.logger.info("no image", metadata: ["status": "\(error.status)", "reason": "\(error.message)"])
            return Self.text(HTTPResponse.Status(code: error.status), error.message)
        }
        let headers: HTTPFields = [
            .contentType: processed.format.mimeType,
            .contentLength: "\(processed.data.count)",
            .cacheControl: "public, max-age=\(maxAge)",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: processed.data)))
    }

    /// A plain-text response of one line, never cached.
    static func text(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
