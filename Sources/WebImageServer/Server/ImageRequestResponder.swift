import Hummingbird
import Logging

/// Answers imgproxy URLs: checks the signature (403), parses the options (400) and checks the source (400 or
/// 403); processing is not built yet, so a URL that passes every check gets 501.
///
/// Error bodies are one line of plain text that never repeats the source URL; they are never cached.
struct ImageRequestResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let signature: URLSignatureVerifier
    let parser: ImgproxyURLParser
    let sourcePolicy: SourceURLPolicy

    init(configuration: ImageServerConfiguration) {
        signature = configuration.signature
        parser = ImgproxyURLParser(presets: configuration.presets)
        sourcePolicy = configuration.sourcePolicy
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
        return Self.text(.notImplemented, "image processing is not implemented yet")
    }

    /// A plain-text response of one line, never cached.
    static func text(_ status: HTTPResponse.Status, _ message: String, extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
