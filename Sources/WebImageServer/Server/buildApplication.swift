public import Hummingbird
public import Logging
import NIOCore
import ServiceLifecycle

/// Builds the image server as a Hummingbird application; run it with `try await app.runService()`, which
/// stops on SIGTERM or SIGINT after the requests in flight (`/health` answers 503 meanwhile), or test it
/// with HummingbirdTesting.
///
/// With no signature key configured, logs a warning: every signature segment is then accepted.
/// - Throws: When the HTTP client for sources cannot be set up (its TLS configuration).
public func buildApplication(configuration: ImageServerConfiguration, logger: Logger = Logger(label: "WebImageServer")) throws -> some ApplicationProtocol {
    if !configuration.signature.isEnabled {
        logger.warning("no signature key configured: URL signatures are not checked")
    }
    let state = ServerState()
    let clients = ConnectionCount(limit: configuration.maximumClients)
    let metrics = ServerMetrics(namespace: configuration.metricsNamespace, workers: configuration.workers)
    let pipeline = try ImageRequestPipeline(configuration: configuration, metrics: metrics, logger: logger)
    return Application(
        router: buildRouter(pipeline: pipeline, state: state, metrics: metrics, logger: logger),
        server: .http1(configuration: .init(
            additionalChannelHandlers: configuration.maximumClients > 0 ? [ConnectionLimitHandler(limit: clients)] : [],
            idleTimeout: TimeAmount(configuration.idleTimeout))),
        configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "webimage"),
        services: [DrainWatcher(state: state)],
        logger: logger
    )
}

/// The server's routes: `/health` (and the configured health-check path; thumbor's `/healthcheck` in its
/// dialect), the playground at `/` (when on), and
/// every other path an image URL; HEAD answers each with the headers of its GET. Every request passes the
/// middleware first: its request id, log line and metrics; CORS headers and `OPTIONS` preflights when an origin
/// is allowed; 405 for other methods.
func buildRouter(pipeline: ImageRequestPipeline, state: ServerState, metrics: ServerMetrics, logger: Logger) -> Router<BasicRequestContext> {
    let configuration = pipeline.configuration
    let router = Router(options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestRecordMiddleware(metrics: metrics, logger: logger))
    if let origin = configuration.allowedOrigin { router.add(middleware: CORSMiddleware(origin: origin)) }
    router.add(middleware: AllowedMethodsMiddleware())
    for path in ["/health"] + (configuration.healthCheckPath.map { [$0] } ?? []) {
        router.get(RouterPath(path)) { _, _ in
            state.isDraining ? ServerError.text(.serviceUnavailable, "draining") : ServerError.text(.ok, "ok")
        }
    }
    if configuration.dialect == .thumbor {
        // thumbor's `HEALTHCHECK_ROUTE`: 200 `WORKING` (503 while draining).
        router.get("/healthcheck") { _, _ in
            state.isDraining
                ? ServerError.text(.serviceUnavailable, "draining")
                : Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "WORKING")))
        }
    }
    router.get("/") { request, _ in
        guard configuration.playground else { return try await pipeline.serve(request) }
        return PlaygroundPage.response(signing: pipeline.signature.isEnabled)
    }
    router.get("**") { request, _ in try await pipeline.serve(request) }
    return router
}

/// Marks the server as draining when graceful shutdown starts, so `/health` answers 503.
struct DrainWatcher: Service {
    let state: ServerState

    func run() async throws {
        try? await gracefulShutdown()
        state.startDraining()
    }
}
