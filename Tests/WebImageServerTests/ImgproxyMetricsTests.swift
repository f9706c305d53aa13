import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import Testing
import WebImageKit
@testable import WebImageServer
import WebImageTestSupport

/// The metrics published under imgproxy's names, read back in Prometheus's text format, as a dashboard reads them.
@Suite struct ImgproxyMetricsTests {
    /// Serves `paths` through a server whose metrics go to a fresh registry, and returns that registry's text.
    static func metricsText(namespace: String, paths: [String], workers: Int = 2) async throws -> String {
        let registry = PrometheusCollectorRegistry()
        let metrics = ServerMetrics(namespace: namespace, workers: workers, factory: PrometheusMetricsFactory(registry: registry))
        let origin = try SourceOrigin()
        let directory = try TemporaryDirectory("metrics")
        defer { directory.remove() }
        var configuration = ImageServerConfiguration(port: 0, sourcePolicy: SourceURLPolicy(addressPolicy: .loopback), cacheDirectory: directory.url)
        configuration.workers = workers
        let logger = ServerTestHarness.quietLogger
        let pipeline = try ImageRequestPipeline(configuration: configuration, metrics: metrics, logger: logger)
        let app = Application(router: buildRouter(pipeline: pipeline, state: ServerState(), metrics: metrics, logger: logger))
        try await origin.run { base in
            try await app.test(.router) { client in
                for path in paths {
                    try await client.execute(uri: path.replacingOccurrences(of: "BASE", with: base), method: .get) { _ in }
                }
            }
        }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func imageRequestsAreCountedUnderImgproxysNamesWithTheNamespace() async throws {
        let text = try await Self.metricsText(namespace: "imgproxy", paths: [
            "/_/w:20/plain/BASE/photo.jpg", "/_/w:20/plain/BASE/missing.jpg", "/health", "/_/w:bad/plain/BASE/photo.jpg",
        ])
        // /health is not an image request; the bad argument is one (400), as imgproxy counts it.
        #expect(text.contains("imgproxy_requests_total 3"))
        #expect(text.contains(#"imgproxy_status_codes_total{status="200"} 1"#))
        #expect(text.contains(#"imgproxy_status_codes_total{status="404"} 1"#))
        #expect(text.contains(#"imgproxy_status_codes_total{status="400"} 1"#))
        #expect(text.contains(#"imgproxy_errors_total{type="downloading"} 1"#))
        #expect(text.contains("imgproxy_request_duration_seconds_count 3"))
        #expect(text.contains("imgproxy_download_duration_seconds_count 1"))
        #expect(text.contains("imgproxy_processing_duration_seconds_count 1"))
        for span in ["queue", "downloading", "processing"] {
            #expect(text.contains(#"imgproxy_request_span_duration_seconds_count{span="\#(span)"}"#), "span \(span)")
        }
        #expect(text.contains(#"imgproxy_buffer_size_bytes_count{type="download"} 1"#))
        #expect(text.contains("imgproxy_requests_in_progress 0"))
        #expect(text.contains("imgproxy_images_in_progress 0"))
        #expect(text.contains("imgproxy_workers 2"))
        #expect(text.contains("imgproxy_workers_utilization 0"))
    }

    @Test func withoutANamespaceTheNamesAreImgproxysBareNames() async throws {
        let text = try await Self.metricsText(namespace: "", paths: ["/_/w:20/plain/BASE/photo.jpg"])
        #expect(text.contains("\nrequests_total 1"))
        #expect(text.contains(#"status_codes_total{status="200"} 1"#))
        #expect(!text.contains("errors_total{"))
    }

    @Test func anUndecodableSourceCountsAsAProcessingError() async throws {
        let text = try await Self.metricsText(namespace: "x", paths: ["/_/w:20/plain/BASE/broken.jpg"])
        #expect(text.contains(#"x_errors_total{type="processing"} 1"#))
        #expect(!text.contains(#"x_errors_total{type="downloading"}"#))
    }

    @Test func theNamespaceSettingIsReadFromImgproxysVariableAndChecked() throws {
        let settings = ServerSettings(environment: ["IMGPROXY_PROMETHEUS_NAMESPACE": "imgproxy"])
        #expect(try settings.configuration().metricsNamespace == "imgproxy")
        #expect(throws: ServerSettingsError.self) {
            try ServerSettings(environment: ["IMGPROXY_PROMETHEUS_NAMESPACE": "img-proxy"]).configuration()
        }
    }
}
