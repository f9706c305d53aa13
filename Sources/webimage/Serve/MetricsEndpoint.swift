import Hummingbird
import Logging
import Metrics
import Prometheus

/// The Prometheus side of `webimage serve --metrics-bind`: bootstraps swift-metrics with a Prometheus registry
/// (once per process) and serves its text format at `/metrics` on its own address, away from the public port.
enum MetricsEndpoint {
    private static let registry = PrometheusCollectorRegistry()

    /// Bootstraps the metrics system (once per process); call before the server is built, so its metrics are
    /// registered. `namespace` is the prefix of the metrics under imgproxy's names, for their buckets.
    static func bootstrap(namespace: String) {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [.milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                                                  .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                                                  .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10)]
        // Source sizes, 1 KB to 50 MB.
        factory.valueHistogramBuckets[namespace.isEmpty ? "buffer_size_bytes" : namespace + "_buffer_size_bytes"] =
            [1e3, 1e4, 3e4, 1e5, 3e5, 1e6, 3e6, 1e7, 5e7]
        MetricsSystem.bootstrap(factory)
    }

    /// An application that answers `GET` on any path (imgproxy's rule; `/metrics` by convention) with the registry's
    /// text.
    static func application(host: String, port: Int, logger: Logger) -> some ApplicationProtocol {
        let registry = Self.registry
        let router = Router()
        let metricsText: @Sendable (Request, BasicRequestContext) -> Response = { _, _ in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(16 * 1024)
            registry.emit(into: &buffer)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: buffer)))
        }
        router.get("/", use: metricsText)
        router.get("**", use: metricsText)
        return Application(router: router, configuration: ApplicationConfiguration(address: .hostname(host, port: port)), logger: logger)
    }
}
