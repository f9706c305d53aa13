import Hummingbird
import Logging
import Metrics
import Prometheus

/// The Prometheus side of `webimage serve --metrics-bind`: bootstraps swift-metrics with a Prometheus registry
/// (once per process) and serves its text format at `/metrics` on its own address, away from the public port.
enum MetricsEndpoint {
    private static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [.milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                                                  .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                                                  .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10)]
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    /// Bootstraps the metrics system; call before the server is built, so its metrics are registered.
    static func bootstrap() {
        _ = registry
    }

    /// An application that answers `GET /metrics` with the registry's text.
    static func application(host: String, port: Int, logger: Logger) -> some ApplicationProtocol {
        let registry = Self.registry
        let router = Router()
        router.get("metrics") { _, _ -> Response in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(16 * 1024)
            registry.emit(into: &buffer)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: buffer)))
        }
        return Application(router: router, configuration: ApplicationConfiguration(address: .hostname(host, port: port)), logger: logger)
    }
}
