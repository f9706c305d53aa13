public import Hummingbird
public import Logging
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
    let responder = try ImageRequestResponder(configuration: configuration, state: state, metrics: ServerMetrics(), logger: logger)
    return Application(
        responder: responder,
        configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "webimage"),
        services: [DrainWatcher(state: state)],
        logger: logger
    )
}

/// Marks the server as draining when graceful shutdown starts, so `/health` answers 503.
struct DrainWatcher: Service {
    let state: ServerState

    func run() async throws {
        try? await gracefulShutdown()
        state.startDraining()
    }
}
