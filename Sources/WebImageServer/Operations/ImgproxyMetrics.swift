import CoreMetrics
import WebImageCore

/// The metrics imgproxy publishes, under imgproxy's names, so that its dashboards and alerts carry over:
/// `requests_total`, `status_codes_total{status}`, `errors_total{type}`, `request_duration_seconds`,
/// `request_span_duration_seconds{span}`, `download_duration_seconds`, `processing_duration_seconds`,
/// `buffer_size_bytes{type}`, `requests_in_progress`, `images_in_progress`, `workers` and `workers_utilization`,
/// each prefixed with the namespace and `_` when one is set (`IMGPROXY_PROMETHEUS_NAMESPACE`).
///
/// Only image requests count (not `/health` or the playground), as in imgproxy.
struct ImgproxyMetrics: Sendable {
    /// The kinds of failure `errors_total` counts.
    enum ErrorType: String, Sendable {
        /// The request outlived the request timeout.
        case timeout
        /// The source could not be fetched, or was refused.
        case downloading
        /// The source could not be decoded, processed or encoded.
        case processing
    }

    /// The parts of a request `request_span_duration_seconds` times.
    enum Span: String, Sendable, CaseIterable {
        /// Waiting for a worker.
        case queue
        /// Fetching the source (from the source cache or its origin).
        case downloading
        /// Decoding, transforming and encoding.
        case processing
    }

    private let factory: any MetricsFactory
    private let namespace: String
    private let requests: Counter
    private let requestDuration: CoreMetrics.Timer
    private let downloadDuration: CoreMetrics.Timer
    private let processingDuration: CoreMetrics.Timer
    private let spans: [Span: CoreMetrics.Timer]
    private let downloadBufferSize: Recorder
    private let requestsInProgress: Meter
    private let imagesInProgress: Meter
    private let workerCount: Int
    private let workersUtilization: Meter

    /// The metric names as published: `name` with the namespace in front, when there is one.
    static func name(_ name: String, namespace: String) -> String {
        namespace.isEmpty ? name : namespace + "_" + name
    }

    init(namespace: String, workers: Int, factory: any MetricsFactory) {
        func name(_ base: String) -> String { Self.name(base, namespace: namespace) }
        func timer(_ base: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Timer {
            CoreMetrics.Timer(label: name(base), dimensions: dimensions, preferredDisplayUnit: .seconds, factory: factory)
        }
        self.factory = factory
        self.namespace = namespace
        requests = Counter(label: name("requests_total"), factory: factory)
        requestDuration = timer("request_duration_seconds")
        downloadDuration = timer("download_duration_seconds")
        processingDuration = timer("processing_duration_seconds")
        spans = Dictionary(uniqueKeysWithValues: Span.allCases.map { ($0, timer("request_span_duration_seconds", [("span", $0.rawValue)])) })
        downloadBufferSize = Recorder(label: name("buffer_size_bytes"), dimensions: [("type", "download")], aggregate: true, factory: factory)
        requestsInProgress = Meter(label: name("requests_in_progress"), factory: factory)
        imagesInProgress = Meter(label: name("images_in_progress"), factory: factory)
        workerCount = max(1, workers)
        Meter(label: name("workers"), factory: factory).set(workerCount)
        workersUtilization = Meter(label: name("workers_utilization"), factory: factory)
    }

    /// An image request started.
    func requestStarted() {
        requestsInProgress.increment()
    }

    /// An image request ended with `status` after `duration`.
    func requestEnded(status: Int, duration: Duration) {
        requestsInProgress.decrement()
        requests.increment()
        Counter(label: Self.name("status_codes_total", namespace: namespace), dimensions: [("status", String(status))], factory: factory).increment()
        requestDuration.recordNanoseconds(duration.nanoseconds)
    }

    /// A failure of kind `type`.
    func error(_ type: ErrorType) {
        Counter(label: Self.name("errors_total", namespace: namespace), dimensions: [("type", type.rawValue)], factory: factory).increment()
    }

    /// `span` of one request took `duration`; downloading and processing also feed their own histograms.
    func record(_ span: Span, _ duration: Duration) {
        spans[span]?.recordNanoseconds(duration.nanoseconds)
        switch span {
        case .downloading: downloadDuration.recordNanoseconds(duration.nanoseconds)
        case .processing: processingDuration.recordNanoseconds(duration.nanoseconds)
        case .queue: break
        }
    }

    /// A source of `bytes` bytes was read.
    func downloaded(bytes: Int) {
        downloadBufferSize.record(bytes)
    }

    /// `active` images are being fetched and processed.
    func setImagesInProgress(_ active: Int) {
        imagesInProgress.set(active)
        workersUtilization.set(Double(active) / Double(workerCount) * 100)
    }
}
