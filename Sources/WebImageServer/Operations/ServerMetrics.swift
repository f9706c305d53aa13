import CoreMetrics
import WebImageCore

/// What the server records through swift-metrics (Prometheus text at `/metrics` when `webimage serve` is
/// given `--metrics-bind`): requests by status, per-stage latency histograms, in-flight and queued requests.
/// Cache hits by level come from the manager's own counters (`webimagekit_memory_hits_total`, …) and
/// ``ResultCache`` (`webimage_result_cache_hits_total`). The same events are also published under imgproxy's
/// names (``ImgproxyMetrics``).
struct ServerMetrics: Sendable {
    /// The stages a processed request goes through, each with its own latency histogram.
    enum Stage: String, Sendable, CaseIterable {
        case download, decode, process, encode
    }

    private let factory: any MetricsFactory
    private let requestDuration: CoreMetrics.Timer
    private let stageTimers: [Stage: CoreMetrics.Timer]
    let inFlight: Meter
    let queued: Meter
    let resultCacheHits: Counter
    let resultCacheMisses: Counter
    /// Sources decoded as far as they go despite damage (`webimage_damaged_sources_total`).
    let damagedSources: Counter
    /// The same events under imgproxy's names.
    let imgproxy: ImgproxyMetrics

    init(namespace: String = "", workers: Int = 1, factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        imgproxy = ImgproxyMetrics(namespace: namespace, workers: workers, factory: factory)
        requestDuration = CoreMetrics.Timer(label: "webimage_request_duration_seconds", preferredDisplayUnit: .seconds, factory: factory)
        stageTimers = Dictionary(uniqueKeysWithValues: Stage.allCases.map {
            ($0, CoreMetrics.Timer(label: "webimage_stage_duration_seconds", dimensions: [("stage", $0.rawValue)], preferredDisplayUnit: .seconds, factory: factory))
        })
        inFlight = Meter(label: "webimage_requests_in_flight", factory: factory)
        queued = Meter(label: "webimage_requests_queued", factory: factory)
        resultCacheHits = Counter(label: "webimage_result_cache_hits_total", factory: factory)
        resultCacheMisses = Counter(label: "webimage_result_cache_misses_total", factory: factory)
        damagedSources = Counter(label: "webimage_damaged_sources_total", factory: factory)
    }

    /// Counts a finished request under its status and records its duration.
    func recordRequest(status: Int, duration: Duration) {
        Counter(label: "webimage_requests_total", dimensions: [("status", String(status))], factory: factory).increment()
        requestDuration.recordNanoseconds(duration.nanoseconds)
    }

    /// Runs `work`, recording its duration under `stage` (also when it throws).
    func time<T>(_ stage: Stage, _ work: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        defer { stageTimers[stage]?.recordNanoseconds((ContinuousClock.now - start).nanoseconds) }
        return try work()
    }

    /// The async form of ``time(_:_:)``.
    func time<T>(_ stage: Stage, _ work: () async throws -> T) async rethrows -> T {
        let start = ContinuousClock.now
        defer { stageTimers[stage]?.recordNanoseconds((ContinuousClock.now - start).nanoseconds) }
        return try await work()
    }
}
