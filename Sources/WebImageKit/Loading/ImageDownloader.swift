import Foundation
public import Logging
import WebImageCore
import NIOCore
import NIOPosix

/// Downloads images over HTTP(S) on kept-alive HTTP/1.1 connections: one network request per URL however
/// many callers ask, a concurrency limit with priorities. It loads bytes
/// (``data(for:options:validators:progress:)``, its ``ImageLoading`` side); ``image(for:options:decoding:coders:progress:)``
/// adds the same decode stage ``ImageManager`` uses.
///
/// The downloader owns network resources, so it must be shut down: use the scoped form, or call
/// ``shutdown(finishingDownloads:)`` yourself. (An unshut downloader keeps its idle connections, and the event-loop
/// threads of ``Configuration/eventLoopThreads``, open until the process ends.)
///
/// ```swift
/// try await withImageDownloader { downloader in
///     let result = try await downloader.image(for: url)
///     print(result.image.pixelSize, result.data.count)
/// }
/// ```
///
/// Threading contract: every method may be called from any thread or task. Transfers run on the event loops of
/// their connections (or on the downloader's own threads when they call the app's hooks), decoding on
/// WebImageKit's decoding threads; the app's hooks, completions and progress callbacks run on the downloader's or
/// WebImageKit's own threads, never on an event loop and never under a lock.
public final class ImageDownloader: Sendable {
    /// How the downloader downloads. A change applies to the downloads that start afterwards: headers,
    /// credentials, timeout, limits and hooks; a new concurrency limit or
    /// execution order also applies to the downloads already waiting.
    ///
    /// ```swift
    /// ImageDownloader.shared.configuration.headers["Referer"] = "https://example.com/"
    /// ImageDownloader.shared.configuration.timeout = .seconds(30)
    /// ```
    public var configuration: Configuration {
        get { state.withLock { $0.configuration } }
        set {
            state.withLock { state in
                state.configuration = newValue
                startReady(&state)
            }
        }
    }
    /// The in-memory cookies of requests made with ``DownloadOptions/handleCookies``.
    public let cookies = CookieJar()
    let logger: Logger
    let connections: HTTP1ConnectionPool
    /// Whether this is ``shared``, which is never shut down.
    private let isProcessWide: Bool
    private let ownedGroup: MultiThreadedEventLoopGroup?
    let state: LockedValue<DownloaderState>
    let broadcaster = DownloadEventBroadcaster()

    /// Creates a downloader; call ``shutdown(finishingDownloads:)`` when done with it, or use `withImageDownloader(configuration:logger:isolation:_:)`.
    /// - Parameters:
    ///   - configuration: Limits, headers and timeouts.
    ///   - logger: Where the downloader logs (default: a `WebImageKit.ImageDownloader` logger).
    public convenience init(
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "WebImageKit.ImageDownloader")
    ) {
        self.init(configuration: configuration, logger: logger, isProcessWide: false)
    }

    /// A downloader with the default configuration that lives as long as the process, for code that
    /// does not manage one. Configure it through ``configuration`` before (or while) using it.
    /// Like the original, its ``shutdown(finishingDownloads:)`` does nothing: the process's exit ends its connections.
    ///
    /// ```swift
    /// let result = try await ImageDownloader.shared.image(for: url)
    /// ```
    public static let shared = ImageDownloader(
        configuration: Configuration(), logger: Logger(label: "WebImageKit.ImageDownloader.shared"), isProcessWide: true
    )

    private init(configuration: Configuration, logger: Logger, isProcessWide: Bool) {
        self.isProcessWide = isProcessWide
        self.logger = logger
        let group: any EventLoopGroup
        if let threads = configuration.eventLoopThreads {
            let owned = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
            ownedGroup = owned
            group = owned
        } else {
            ownedGroup = nil
            group = MultiThreadedEventLoopGroup.singleton
        }
        connections = HTTP1ConnectionPool(group: group, idleLifetime: configuration.idleConnectionLifetime)
        state = LockedValue(DownloaderState(configuration: configuration))
    }

    /// Stops the downloader: new requests fail with ``ImageDownloadError/Code/cancelled``, then
    /// the downloads already asked for are cancelled (their callers get `cancelled`), or with
    /// `finishingDownloads` run to their end and deliver first (waiting ones too, a suspended queue
    /// included), as the seeds' `finishTasksAndInvalidate`; then the HTTP client and any event-loop group
    /// the downloader created are shut down. Call it once. On ``shared`` it does nothing.
    ///
    /// ```swift
    /// try await downloader.shutdown(finishingDownloads: true)   // drain, e.g. on SIGTERM
    /// ```
    public func shutdown(finishingDownloads: Bool = false) async throws {
        guard !isProcessWide else { return }
        if finishingDownloads {
            state.withLock { state in
                state.isShutDown = true
                state.queue.isSuspended = false
                startReady(&state)
            }
            // A transfer starts the next waiting one before it ends, so none is left once no task runs.
            while case let tasks = state.withLock({ $0.runningTasks }), !tasks.isEmpty {
                for task in tasks { await task.value }
            }
        }
        let (subscribers, tasks) = state.withLock { state in
            state.isShutDown = true
            let cancelled = state.cancelAll()
            return (cancelled.subscribers, cancelled.tasks + state.runningTasks)
        }
        complete(subscribers, with: .failure(.cancelled("the downloader was shut down")))
        for task in tasks {
            task.cancel()
            await task.value
        }
        broadcaster.finish()
        connections.shutdown()
        try await ownedGroup?.shutdownGracefully()
    }

    // MARK: Queue control

    /// Downloads waiting or running.
    public var currentDownloadCount: Int {
        state.withLock { $0.currentDownloadCount }
    }

    /// Stops starting queued downloads; running downloads continue.
    public func suspend() {
        state.withLock { $0.queue.isSuspended = true }
    }

    /// Starts queued downloads again, up to the concurrency limit.
    public func resume() {
        state.withLock { state in
            state.queue.isSuspended = false
            startReady(&state)
        }
    }

    /// Whether queued downloads are held back by ``suspend()``.
    var isSuspended: Bool {
        state.withLock { $0.queue.isSuspended }
    }

    /// Cancels every waiting and running download; each subscriber gets ``ImageDownloadError/Code/cancelled``
    /// (unlike a token cancel, which is silent, so that awaiting callers always resume).
    public func cancelAll() {
        let (subscribers, tasks) = state.withLock { $0.cancelAll() }
        for task in tasks { task.cancel() }
        complete(subscribers, with: .failure(.cancelled()))
    }

    // MARK: Downloading

    /// Adds a caller to the download of `url` (conditional when `validators` is non-empty), queueing a
    /// new download when none is in flight for the same URL and validators; `token` completes it.
    func subscribe(
        _ url: URL, options: DownloadOptions, validators: Validators?,
        progress: (@Sendable (DownloadProgress) -> Void)?, token: DownloadSubscription
    ) {
        guard canLoad(url) else {
            token.complete(.failure(ImageDownloadError(.invalidURL, "\(url.absoluteString) is not an http(s) URL")))
            return
        }
        let validators = validators?.isEmpty == false ? validators : nil
        // A conditional request is shared only with callers sending the same validators.
        let key = validators.map { "\(url.absoluteString)\n\($0.etag ?? "")\n\($0.lastModified ?? "")" } ?? url.absoluteString
        let ids: (operation: UInt64, subscriber: UInt64)? = state.withLock { state in
            guard !state.isShutDown else { return nil }
            let ids = state.subscribe(url: url, key: key, options: options, validators: validators) { id in
                DownloadSubscriber(
                    id: id, priority: DownloadPriority(options), wantsData: options.contains(.progressiveLoad),
                    progress: progress, token: token)
            }
            startReady(&state)
            return ids
        }
        guard let ids else {
            token.complete(.failure(.cancelled("the downloader was shut down")))
            return
        }
        token.attach(to: self, operation: ids.operation, subscriber: ids.subscriber)
    }

    /// Removes the token's subscriber; the transfer stops when it was the last.
    func cancel(operation: UInt64, subscriber: UInt64) {
        let action = state.withLock { $0.unsubscribe(operation: operation, subscriber: subscriber) }
        if case .cancelTransfer(let task) = action {
            logger.debug("cancelling a download with no subscribers left", metadata: ["operation": "\(operation)"])
            task?.cancel()
        }
    }

    /// Starts every queued operation that may run now; called with the lock held.
    ///
    /// A transfer runs on the event loop of its connection, where the response's bytes arrive, so that a response
    /// wakes no other thread before its callers; one that calls the app's code (``Configuration/runsAppCode``)
    /// runs on the downloader's own threads (``WorkerThreads/transfers``) instead, as do progress callbacks. Neither
    /// is Swift's cooperative pool: a process whose cooperative threads are all busy still reads response bodies
    /// before their timeouts fire. Decoding goes to ``WorkerThreads/processing``.
    func startReady(_ state: inout DownloaderState) {
        let onTransferThreads = state.configuration.runsAppCode
        for id in state.takeReady() {
            let request = state.request(for: id)
            let loop = connections.executor(
                for: request?.url, verifiesCertificates: request?.options.contains(.allowInvalidSSLCertificates) != true)
            let executor: any TaskExecutor = onTransferThreads ? WorkerThreads.transfers : loop
            let task = Task.detached(executorPreference: executor, priority: .medium) { [self] in
                await run(id, on: loop.loop)
            }
            state.setTask(task, for: id)
        }
    }

    /// Completes each subscriber with `result`.
    func complete(_ subscribers: [DownloadSubscriber], with result: Result<DownloadedData, ImageDownloadError>) {
        for subscriber in subscribers { subscriber.token.complete(result) }
    }
}

/// Runs `body` with a new downloader and shuts it down afterwards, whether `body` throws or not.
///
/// ```swift
/// let image = try await withImageDownloader { try await $0.image(for: url).image }
/// ```
public func withImageDownloader<Result>(
    configuration: ImageDownloader.Configuration = .init(),
    logger: Logger = Logger(label: "WebImageKit.ImageDownloader"),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ImageDownloader) async throws -> Result
) async throws -> Result {
    let downloader = ImageDownloader(configuration: configuration, logger: logger)
    let result: Result
    do {
        result = try await body(downloader)
    } catch {
        try? await downloader.shutdown()
        throw error
    }
    try await downloader.shutdown()
    return result
}
