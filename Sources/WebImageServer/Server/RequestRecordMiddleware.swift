import Foundation
import HTTPTypes
import Hummingbird
import Logging
import WebImageCore

/// Gives every request an id (`X-Request-ID`: the client's when it is short and plain, else a new one), echoed
/// in the response, and records it when it ends: one log line and the request metrics, whatever the status.
struct RequestRecordMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let metrics: ServerMetrics
    let logger: Logger

    /// `X-Request-ID`.
    static let requestIDField = HTTPField.Name("X-Request-ID")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let requestID = Self.requestID(request.headers[Self.requestIDField])
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            logger.error("unexpected error", metadata: ["request_id": "\(requestID)", "error": "\(error)"])
            response = ServerError.text(.internalServerError, "the request failed")
        }
        response.headers[Self.requestIDField] = requestID
        let duration = ContinuousClock.now - start
        metrics.recordRequest(status: response.status.code, duration: duration)
        logger.info("request", metadata: [
            "request_id": "\(requestID)",
            "method": "\(request.method)",
            "path": "\(Self.loggable(request.head.path ?? "/"))",
            "status": "\(response.status.code)",
            "bytes": "\(response.headers[.contentLength] ?? "0")",
            "ms": "\(String(format: "%.1f", duration.seconds * 1000))",
        ])
        return response
    }

    /// The client's request id when it is short and plain, else a new random one.
    static func requestID(_ given: String?) -> String {
        if let given, (1...64).contains(given.utf8.count),
            given.utf8.allSatisfy({ $0 < 0x80 && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")) })
        {
            return given
        }
        return Hex.encode((0..<8).map { _ in UInt8.random(in: 0...255) })
    }

    /// A path for the log: at most 512 characters.
    static func loggable(_ path: String) -> String {
        path.count > 512 ? String(path.prefix(512)) + "…" : path
    }
}

/// Answers 405 with `Allow: GET, HEAD` to every other method, before any route.
struct AllowedMethodsMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            throw ServerError(.methodNotAllowed, "only GET and HEAD are supported", headers: [.allow: "GET, HEAD"])
        }
        return try await next(request, context)
    }
}

/// CORS for one allowed origin (imgproxy's `IMGPROXY_ALLOW_ORIGIN`): every response, errors included, says
/// `Access-Control-Allow-Origin` and `Access-Control-Allow-Methods: GET, OPTIONS`; an `OPTIONS` preflight is
/// answered here.
struct CORSMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let origin: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        if request.method == .options {
            response = Response(status: .ok, headers: [.contentLength: "0"])
        } else {
            do {
                response = try await next(request, context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
        }
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlAllowMethods] = "GET, OPTIONS"
        return response
    }
}
