import CoreMetrics
import Foundation
import Logging
import WebImageKit

/// A loader for `mock:` URLs that serves images from memory, counts what it is asked, can hold loads
/// until released, and answers conditional requests by entity tag. No sockets.
final class MockLoader: ImageLoading {
    enum Reply: Sendable {
        case image(Data, etag: String?)
        case failure(ImageDownloadError)
    }

    struct State {
        var replies: [URL: Reply] = [:]
        var loads: [URL: Int] = [:]
        var revalidations: [URL: Int] = [:]
        var cancellations = 0
        var isHeld = false
        var partialImage: Image?
        var inFlight = 0
        var maximumInFlight = 0
        var options: [DownloadOptions] = []
    }

    let state = LockedValue(State())
    let gate = Gate()
    /// Every URL the loader was asked for, when it was asked.
    let arrivals: AsyncStream<URL>
    private let arrivalSink: AsyncStream<URL>.Continuation

    init() {
        (arrivals, arrivalSink) = AsyncStream.makeStream()
    }

    static func url(_ name: String) -> URL {
        URL(string: "mock://images/\(name)")!
    }

    /// Serves `url` as a PNG of the given size (and entity tag).
    func serve(_ url: URL, width: Int = 8, height: Int = 6, red: UInt8 = 200, etag: String? = nil) {
        let image = Image(pixels: PixelBuffer(width: width, height: height, fill: RGBA(red: red, green: 10, blue: 10)))
        let data = (try? ImageCodersManager.shared.encode(image, as: .png, options: ImageEncodingOptions())) ?? Data()
        state.withLock { $0.replies[url] = .image(data, etag: etag) }
    }

    func fail(_ url: URL, with error: ImageDownloadError) {
        state.withLock { $0.replies[url] = .failure(error) }
    }

    /// Makes loads wait at the gate until ``release()``.
    func hold() { state.withLock { $0.isHeld = true } }

    func release() {
        state.withLock { $0.isHeld = false }
        gate.open()
    }

    /// Progressive loads get `image` as a partial image before the whole one.
    func sendPartial(_ image: Image) { state.withLock { $0.partialImage = image } }

    func loads(of url: URL) -> Int { state.withLock { $0.loads[url] ?? 0 } }
    var totalLoads: Int { state.withLock { $0.loads.values.reduce(0, +) } }
    func revalidations(of url: URL) -> Int { state.withLock { $0.revalidations[url] ?? 0 } }
    var cancellations: Int { state.withLock { $0.cancellations } }
    var maximumInFlight: Int { state.withLock { $0.maximumInFlight } }

    func canLoad(_ url: URL) -> Bool { url.scheme == "mock" }

    func load(
        _ url: URL, options: DownloadOptions, decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadResult {
        try await load(url, options: options, decoding: decoding, progress: progress, partial: nil)
    }

    func load(
        _ url: URL, options: DownloadOptions, decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?, partial: (@Sendable (Image) -> Void)?
    ) async throws -> DownloadResult {
        let (reply, held, partialImage) = state.withLock { state in
            state.loads[url, default: 0] += 1
            state.options.append(options)
            state.inFlight += 1
            state.maximumInFlight = max(state.maximumInFlight, state.inFlight)
            return (state.replies[url], state.isHeld, state.partialImage)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        arrivalSink.yield(url)
        try await pass(held: held)
        guard let reply else { throw ImageDownloadError(.badStatus(404), "no such mock image") }
        switch reply {
        case .failure(let error):
            throw error
        case .image(let data, let etag):
            progress?(DownloadProgress(url: url, receivedBytes: data.count, expectedBytes: data.count))
            if let partialImage, options.contains(.progressiveLoad) { partial?(partialImage) }
            return try decode(data, url: url, etag: etag, decoding: decoding)
        }
    }

    func revalidate(
        _ url: URL, validators: Validators, options: DownloadOptions, decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> RevalidationResult {
        let (reply, held) = state.withLock { state in
            state.revalidations[url, default: 0] += 1
            return (state.replies[url], state.isHeld)
        }
        arrivalSink.yield(url)
        try await pass(held: held)
        guard case .image(let data, let etag) = reply else { throw ImageDownloadError(.badStatus(404), "gone") }
        if let etag, validators.etag == etag {
            return .notModified(DownloadResponse(url: url, statusCode: 304, headers: ["etag": etag]))
        }
        return .modified(try decode(data, url: url, etag: etag, decoding: decoding))
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

    private func decode(_ data: Data, url: URL, etag: String?, decoding: ImageDecodingOptions) throws -> DownloadResult {
        var headers = ["content-type": "image/png"]
        if let etag { headers["etag"] = etag }
        let image = try (decoding.coders ?? ImageCodersManager.shared).decode(data, options: decoding)
        return DownloadResult(image: image, data: data, response: DownloadResponse(url: url, statusCode: 200, headers: headers))
    }
}

/// Holds tasks until opened; a task cancelled while waiting throws `CancellationError` at once.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state = LockedValue(State())

    func wait() async throws {
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

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Collects what a callback-form load delivers.
final class Deliveries: Sendable {
    private let results = LockedValue<[Result<ImageLoadResult, ImageLoadError>]>([])
    private let (stream, sink) = AsyncStream.makeStream(of: Result<ImageLoadResult, ImageLoadError>.self)

    var completion: @Sendable (Result<ImageLoadResult, ImageLoadError>) -> Void {
        { result in
            self.results.withLock { $0.append(result) }
            self.sink.yield(result)
        }
    }

    var all: [Result<ImageLoadResult, ImageLoadError>] { results.withLock { $0 } }
    var count: Int { results.withLock { $0.count } }

    /// Waits for the next delivery.
    func next() async -> Result<ImageLoadResult, ImageLoadError>? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// A transformer that counts its calls and tints the image.
final class CountingTransformer: ImageTransforming {
    let calls = LockedValue(0)
    let transformerKey: String

    init(key: String = "counting") { transformerKey = key }

    func transform(pixels: PixelBuffer) throws -> PixelBuffer {
        calls.withLock { $0 += 1 }
        return PixelBuffer(width: pixels.width, height: pixels.height, fill: RGBA(red: 0, green: 0, blue: 255))
    }

    var count: Int { calls.withLock { $0 } }
}

/// Builds managers over a temporary cache and a mock loader.
struct ManagerFixture {
    let root: TemporaryDirectory
    let cache: ImageCache
    let loader = MockLoader()
    let manager: ImageManager

    init(configuration: ImageManager.Configuration = .init(), metrics: (any MetricsFactory)? = nil) throws {
        root = try TemporaryDirectory()
        cache = ImageCache(namespace: "manager", root: root.url)
        // Background disk writes may outlive a test's temporary folder: keep their warnings out of the output.
        var logger = Logger(label: "ManagerFixture")
        logger.logLevel = .critical
        manager = ImageManager(
            cache: cache, loader: loader, configuration: configuration, logger: logger, metricsFactory: metrics)
    }

    /// Waits until the manager has no running load.
    func waitUntilIdle() async throws {
        try await eventually { !manager.isRunning }
    }

    func remove() { root.remove() }
}

/// Waits (up to 5 s, checking every millisecond) until `condition` holds: for state that changes on another
/// task with no event to wait on, such as a cancellation reaching a loader.
func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<5_000 where !condition() {
        try await Task.sleep(for: .milliseconds(1))
    }
}
