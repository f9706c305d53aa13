import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import Logging
import ServiceLifecycle
import NIOCore
import WebImageKit

/// An in-process Hummingbird server on 127.0.0.1 (port 0) with routes that exercise the downloader.
///
/// Routes: `/image/*` (a PNG, counted), `/held/*` (a PNG once the test releases it), `/progressive`
/// (half of ``largePNG``, the rest once released), `/drip` (a PNG prefix, then one byte at a time
/// until the client leaves), `/etag` (validators honoured), `/flaky/*` (503 twice), `/encrypted`,
/// `/cookie/set`, `/empty` (a 200 without a body), `/short` and `/reset` (bodies cut off by a closed connection), `/status/:code`, `/html`, `/large` and `/large-chunked` (bodies of `?bytes=`),
/// `/auth` (Basic `user:pass`), `/redirect?to=` (a 302 to `to`), `/loop/a|b`.
/// Every request is logged; ``events`` reports arrivals and the end of the drip route.
final class TestImageServer: Sendable {
    /// Something the server observed.
    enum Event: Sendable, Equatable {
        case arrived(String)
        case dripAborted
        case dripCompleted
    }

    let log = ServerLog()
    let gates = Gates()
    let events: AsyncStream<Event>
    private let eventSink: AsyncStream<Event>.Continuation
    let png: Data
    /// A 256×256 PNG large enough to arrive in many chunks, for progressive loading.
    let largePNG: Data

    init() throws {
        (events, eventSink) = AsyncStream.makeStream(of: Event.self)
        let pixels = PixelBuffer(width: 16, height: 8, fill: RGBA(red: 200, green: 10, blue: 10))
        png = try ImageCodersManager.shared.encode(Image(pixels: pixels), as: .png, options: .init())
        largePNG = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 256, height: 256)), as: .png, options: .init())
    }

    /// Runs `body` with the server listening; `body` gets the base URL (`https` when `tls` is given).
    func run<T: Sendable>(tls: TLSConfiguration? = nil, _ body: @Sendable (URL) async throws -> T) async throws -> T {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: makeRouter(),
            server: try tls.map { try .tls(tlsConfiguration: $0) } ?? .http1(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) },
            logger: Self.quietLogger
        )
        let services = ServiceGroup(configuration: .init(services: [app], logger: Self.quietLogger))
        let serverTask = Task { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0,
            let base = URL(string: "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)") else {
            serverTask.cancel()
            throw CancellationError()
        }
        let result: T
        do {
            result = try await body(base)
        } catch {
            await stop(services, serverTask)
            throw error
        }
        await stop(services, serverTask)
        return result
    }

    /// Releases every held request and shuts the server down gracefully, so that each handler finishes its
    /// response (cancelling the server mid-response trips NIO's "NIOAsyncWriter deinited without finish"
    /// precondition); a server still running after 10 s is cancelled.
    private func stop(_ services: ServiceGroup, _ serverTask: Task<Void, any Error>) async {
        await gates.releaseAll()
        await services.triggerGracefulShutdown()
        let deadline = Task {
            try await Task.sleep(for: .seconds(10))
            serverTask.cancel()
        }
        _ = try? await serverTask.value
        deadline.cancel()
    }

    /// Cancelling the server task is an abrupt stop, which Hummingbird logs as errors; keep test output clean.
    private static let quietLogger: Logger = {
        var logger = Logger(label: "TestImageServer")
        logger.logLevel = .critical
        return logger
    }()

    private func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        let png = self.png
        let sink = eventSink
        let log = self.log
        let gates = self.gates
        router.middlewares.add(LoggingMiddleware(log: log, sink: sink))
        router.get("image/:name") { _, _ in Self.imageResponse(png) }
        router.get("held/:name") { request, _ in
            await log.enter()
            await gates.wait(request.uri.path)
            await log.leave()
            return Self.imageResponse(png)
        }
        router.get("drip") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png"], body: ResponseBody { writer in
                do {
                    try await writer.write(ByteBuffer(bytes: png.prefix(16)))
                    for _ in 0..<2_000 {
                        try await Task.sleep(for: .milliseconds(5))  // pacing, not synchronisation
                        try await writer.write(ByteBuffer(bytes: [0]))
                    }
                    sink.yield(.dripCompleted)
                } catch {
                    sink.yield(.dripAborted)
                    throw error
                }
                try await writer.finish(nil)
            })
        }
        let largePNG = self.largePNG
        router.get("progressive") { _, _ in
            // Half the file, then the rest once the test releases "/progressive/rest".
            let headers: HTTPFields = [.contentType: "image/png", .contentLength: "\(largePNG.count)"]
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                let half = largePNG.count / 2
                try await writer.write(ByteBuffer(bytes: largePNG.prefix(half)))
                await gates.wait("/progressive/rest")
                try await writer.write(ByteBuffer(bytes: largePNG.dropFirst(half)))
                try await writer.finish(nil)
            })
        }
        router.get("etag") { request, _ in
            // Honours If-None-Match and If-Modified-Since for the current version "v1".
            let lastModified = "Sun, 01 Nov 2026 10:00:00 GMT"
            let headers: HTTPFields = [.contentType: "image/png", .eTag: "\"v1\"", .lastModified: lastModified]
            if request.headers[.ifNoneMatch] == "\"v1\"" || (request.headers[.ifNoneMatch] == nil && request.headers[.ifModifiedSince] == lastModified) {
                return Response(status: .notModified, headers: headers)
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }
        router.get("flaky/:name") { request, _ in
            // 503 for the first two requests of each path (with `Retry-After: 7`, as a date 7 s ahead with
            // `?date`, none with `?plain`), then the PNG.
            guard await log.count(request.uri.path) > 2 else {
                let query = request.uri.queryParameters
                if query.get("plain") != nil { return Response(status: .serviceUnavailable) }
                let retryAfter = query.get("date") != nil ? Self.httpDate(Date().addingTimeInterval(7)) : "7"
                return Response(status: .serviceUnavailable, headers: [.retryAfter: retryAfter])
            }
            return Self.imageResponse(png)
        }
        router.get("encrypted") { _, _ in
            // The PNG with every byte XOR 0x5A, served as opaque bytes.
            Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .init(byteBuffer: ByteBuffer(bytes: png.map { $0 ^ 0x5A })))
        }
        router.get("cookie/set") { _, _ in
            var headers: HTTPFields = [.contentType: "image/png"]
            headers.append(HTTPField(name: .setCookie, value: "session=abc123; Path=/; HttpOnly"))
            headers.append(HTTPField(name: .setCookie, value: "theme=dark; Expires=Wed, 21 Oct 2037 07:28:00 GMT"))
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }
        router.get("short") { _, _ in
            // Declares more bytes than it sends, then closes the connection.
            let headers: HTTPFields = [.contentType: "image/png", .contentLength: "\(png.count + 1000)"]
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: png))
                throw CancellationError()
            })
        }
        router.get("reset") { _, _ in
            // A chunked body that stops half-way: the server closes the channel.
            Response(status: .ok, headers: [.contentType: "image/png"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: png.prefix(png.count / 2)))
                throw CancellationError()
            })
        }
        router.get("status/:code") { _, context in
            let code = context.parameters.get("code", as: Int.self) ?? 500
            return Response(status: .init(code: code), headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "status \(code)")))
        }
        router.get("html") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<html><body>not an image</body></html>")))
        }
        router.get("empty") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png", .contentLength: "0"])
        }
        router.get("octet") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }
        router.get("large") { request, _ in
            let count = request.uri.queryParameters.get("bytes", as: Int.self) ?? 1_000_000
            var bytes = [UInt8](png)
            bytes += [UInt8](repeating: 0, count: max(0, count - bytes.count))
            return Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("large-chunked") { request, _ in
            let count = request.uri.queryParameters.get("bytes", as: Int.self) ?? 1_000_000
            return Response(status: .ok, headers: [.contentType: "image/png"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: png))
                var sent = png.count
                while sent < count {
                    try await writer.write(ByteBuffer(repeating: 0, count: 4096))
                    sent += 4096
                }
                try await writer.finish(nil)
            })
        }
        router.get("auth") { request, _ in
            guard request.headers[.authorization] == "Basic dXNlcjpwYXNz" else {
                return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"test\""])
            }
            return Self.imageResponse(png)
        }
        router.get("redirect") { request, _ in
            Response(status: .found, headers: [.location: request.uri.queryParameters.get("to") ?? "/"])
        }
        router.get("loop/a") { _, _ in Response(status: .found, headers: [.location: "/loop/b"]) }
        router.get("loop/b") { _, _ in Response(status: .found, headers: [.location: "/loop/a"]) }
        addFaultRoutes(to: router)
        return router
    }

    /// `date` as an IMF-fixdate, the form HTTP headers use.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    private static func imageResponse(_ png: Data) -> Response {
        Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: png)))
    }
}

/// Records each request and the in-flight count of the held route.
actor ServerLog {
    private(set) var paths: [String] = []
    private(set) var inFlight = 0
    private(set) var maximumInFlight = 0
    /// The headers of the latest request, lower-cased names.
    private(set) var headers: [String: String] = [:]
    /// The headers of every request, in arrival order.
    private(set) var requests: [(path: String, headers: [String: String])] = []

    func record(_ path: String, headers: [String: String]) {
        paths.append(path)
        self.headers = headers
        requests.append((path, headers))
    }

    /// The headers of each request for `path`, in arrival order.
    func headers(of path: String) -> [[String: String]] { requests.filter { $0.path == path }.map(\.headers) }

    func count(_ path: String) -> Int { paths.filter { $0 == path }.count }

    func enter() {
        inFlight += 1
        maximumInFlight = max(maximumInFlight, inFlight)
    }

    func leave() { inFlight -= 1 }
}

/// Holds requests of the `/held/*` route until the test releases them.
actor Gates {
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var released: Set<String> = []
    private var releasedEverything = false

    func wait(_ path: String) async {
        guard !releasedEverything, !released.contains(path) else { return }
        await withCheckedContinuation { waiting[path, default: []].append($0) }
    }

    /// Lets every current and future request for `path` through.
    func release(_ path: String) {
        released.insert(path)
        for continuation in waiting.removeValue(forKey: path) ?? [] { continuation.resume() }
    }

    func releaseAll() {
        releasedEverything = true
        for continuation in waiting.values.flatMap({ $0 }) { continuation.resume() }
        waiting = [:]
    }
}

/// Logs every request and reports its arrival.
struct LoggingMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let log: ServerLog
    let sink: AsyncStream<TestImageServer.Event>.Continuation

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let headers = Dictionary(request.headers.map { ($0.name.canonicalName, $0.value) }) { "\($0), \($1)" }
        await log.record(request.uri.path, headers: headers)
        sink.yield(.arrived(request.uri.path))
        return try await next(request, context)
    }
}
