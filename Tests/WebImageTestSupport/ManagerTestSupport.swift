package import CoreMetrics
package import Foundation
import Logging
package import Testing
package import WebImageKit

/// A loader for `mock:` URLs that serves image bytes from memory, counts what it is asked, can hold loads
/// until released, and answers conditional requests by entity tag. No sockets.
package final class MockLoader: ImageLoading {
    package enum Reply: Sendable {
        case image(Data, etag: String?)
        case failure(ImageDownloadError)
    }

    package struct State {
        package var replies: [URL: Reply] = [:]
        package var loads: [URL: Int] = [:]
        package var revalidations: [URL: Int] = [:]
        package var cancellations = 0
        package var isHeld = false
        package var sendsPartialData = false
        package var inFlight = 0
        package var maximumInFlight = 0
        package var options: [DownloadOptions] = []
    }

    package let state = LockedValue(State())
    package let gate = Gate()
    /// Every URL the loader was asked for, when it was asked.
    package let arrivals: AsyncStream<URL>
    private let arrivalSink: AsyncStream<URL>.Continuation

    package init() {
        (arrivals, arrivalSink) = AsyncStream.makeStream()
    }

    package static func url(_ name: String) -> URL {
        URL(string: "mock://images/\(name)")!
    }

    /// Serves `url` as a PNG of the given size (and entity tag).
    package func serve(_ url: URL, width: Int = 8, height: Int = 6, red: UInt8 = 200, etag: String? = nil) {
        let image = Image(pixels: PixelBuffer(width: width, height: height, fill: RGBA(red: red, green: 10, blue: 10)))
        let data = (try? ImageCodersManager.shared.encode(image, as: .png, options: ImageEncodingOptions())) ?? Data()
        state.withLock { $0.replies[url] = .image(data, etag: etag) }
    }

    /// Serves `data` as it is at `url` (a damaged file, say).
    package func serve(_ url: URL, data: Data) {
        state.withLock { $0.replies[url] = .image(data, etag: nil) }
    }

    package func fail(_ url: URL, with error: ImageDownloadError) {
        state.withLock { $0.replies[url] = .failure(error) }
    }

    /// Makes loads wait at the gate until ``release()``.
    package func hold() { state.withLock { $0.isHeld = true } }

    package func release() {
        state.withLock { $0.isHeld = false }
        gate.open()
    }

    /// Progressive loads get progress with the first half of the bytes before waiting at the gate.
    package func sendPartialData() { state.withLock { $0.sendsPartialData = true } }

    package func loads(of url: URL) -> Int { state.withLock { $0.loads[url] ?? 0 } }
    package var totalLoads: Int { state.withLock { $0.loads.values.reduce(0, +) } }
    package func revalidations(of url: URL) -> Int { state.withLock { $0.revalidations[url] ?? 0 } }
    package var cancellations: Int { state.withLock { $0.cancellations } }
    package var maximumInFlight: Int { state.withLock { $0.maximumInFlight } }

    package func canLoad(_ url: URL) -> Bool { url.scheme == "mock" }

    package func loadData(
        for url: URL, options: DownloadOptions, validators: Validators?,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData {
        let conditional = validators?.isEmpty == false
        let (reply, held, partial) = state.withLock { state in
            if conditional {
                state.revalidations[url, default: 0] += 1
            } else {
                state.loads[url, default: 0] += 1
            }
            state.options.append(options)
            state.inFlight += 1
            state.maximumInFlight = max(state.maximumInFlight, state.inFlight)
            return (state.replies[url], state.isHeld, state.sendsPartialData)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        arrivalSink.yield(url)
        if partial, options.contains(.progressiveLoad), case .image(let data, _) = reply {
            let half = data.count / 2
            progress?(DownloadProgress(url: url, receivedBytes: half, expectedBytes: data.count, data: data.prefix(half)))
        }
        try await pass(held: held)
        guard let reply else { throw ImageDownloadError(.badStatus(404), "no such mock image") }
        switch reply {
        case .failure(let error):
            throw error
        case .image(let data, let etag):
            var headers = ["content-type": "image/png"]
            if let etag { headers["etag"] = etag }
            if conditional, let etag, validators?.etag == etag {
                return DownloadedData(data: Data(), response: DownloadResponse(url: url, statusCode: 304, headers: headers))
            }
            progress?(DownloadProgress(url: url, receivedBytes: data.count, expectedBytes: data.count))
            return DownloadedData(data: data, response: DownloadResponse(url: url, statusCode: 200, headers: headers))
        }
    }

    private func pass(held: Bool) async throws {
        do {
            if held { try await gate.wait() }
            try Task.checkCancellation()
        } catch {
            state.withLock { $0.cancellations += 1 }
            throw ImageDownloadError(.cancelled, "the mock load was cancelled")
        }
    }
}

/// Holds tasks until opened; a task cancelled while waiting throws `CancellationError` at once.
package final class Gate: Sendable {
    package init() {}
    private struct State {
        package var isOpen = false
        package var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        package var cancelled: Set<UInt64> = []
        package var nextID: UInt64 = 0
    }

    private let state = LockedValue(State())

    package func wait() async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if state.isOpen { return .success(()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                state.cancelled.insert(id)
                return nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    package func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Collects what a callback-form load delivers.
package final class Deliveries: Sendable {
    package init() {}
    private let results = LockedValue<[Result<ImageLoadResult, ImageLoadError>]>([])
    private let (stream, sink) = AsyncStream.makeStream(of: Result<ImageLoadResult, ImageLoadError>.self)

    package var completion: @Sendable (Result<ImageLoadResult, ImageLoadError>) -> Void {
        { result in
            self.results.withLock { $0.append(result) }
            self.sink.yield(result)
        }
    }

    package var all: [Result<ImageLoadResult, ImageLoadError>] { results.withLock { $0 } }
    package var count: Int { results.withLock { $0.count } }

    /// Waits for the next delivery.
    package func next() async -> Result<ImageLoadResult, ImageLoadError>? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// A transformer that counts its calls and tints the image.
package final class CountingTransformer: ImageTransforming {
    package let calls = LockedValue(0)
    package let transformerKey: String

    package init(key: String = "counting") { transformerKey = key }

    package func transform(pixels: PixelBuffer) throws -> PixelBuffer {
        calls.withLock { $0 += 1 }
        return PixelBuffer(width: pixels.width, height: pixels.height, fill: RGBA(red: 0, green: 0, blue: 255))
    }

    package var count: Int { calls.withLock { $0 } }
}

/// Builds managers over a temporary cache and a mock loader.
package struct ManagerFixture {
    package let root: TemporaryDirectory
    package let cache: ImageCache
    package let loader = MockLoader()
    package let manager: ImageManager

    package init(configuration: ImageManager.Configuration = .init(), metrics: (any MetricsFactory)? = nil) throws {
        root = try TemporaryDirectory()
        cache = ImageCache(namespace: "manager", root: root.url)
        // Background disk writes may outlive a test's temporary folder: keep their warnings out of the output.
        var logger = Logger(label: "ManagerFixture")
        logger.logLevel = .critical
        manager = ImageManager(
            cache: cache, loader: loader, configuration: configuration, logger: logger, metricsFactory: metrics)
    }

    /// Waits until the manager has no running load.
    package func waitUntilIdle() async throws {
        try await eventually { !manager.isRunning }
    }

    package func remove() { root.remove() }
}

/// Waits until `condition` holds, checking every millisecond, for state that changes on another task with no
/// event to wait on (such as a cancellation reaching a loader). Records an issue when `timeout` passes first.
///
/// The timeout counts the time spent polling, not the time spent waiting for a thread: with the whole suite
/// running in parallel under the thread sanitizer on two cores, CPU-bound tests can keep every cooperative
/// thread busy for over a minute, and then neither the poller nor the work it waits for runs. A hung
/// condition still fails, after at least `timeout`.
package func eventually(
    timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async -> Bool
) async throws {
    let interval = Duration.milliseconds(1)
    var polled = Duration.zero
    while await !condition() {
        guard polled < timeout else {
            Issue.record("the condition was still false after \(timeout) of polling", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: interval)
        polled += interval
    }
}
