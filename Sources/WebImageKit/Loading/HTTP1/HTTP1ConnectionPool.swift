import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import WebImageCore

/// The downloader's HTTP/1.1 client: `GET`s on kept-alive connections, one exchange per connection at a
/// time, reused for the next request to the same origin (scheme, host, port, certificate checking).
///
/// It does what an image download needs and no more: no request bodies, no HTTP/2, no redirects (the downloader
/// follows them). The response head comes back as soon as it arrives and the body as a stream of the buffers NIO
/// reads, so that the downloader checks status, type and size as early as it can. A request sent on a reused
/// connection that the server had closed meanwhile is sent again once on a new one (a `GET` is idempotent).
final class HTTP1ConnectionPool: Sendable {
    /// Connections are shared only within an origin.
    struct Origin: Hashable, Sendable {
        let isTLS: Bool
        let host: String
        let port: Int
        let verifiesCertificates: Bool
    }

    /// Idle connections kept per origin; more are closed.
    static let maximumIdlePerOrigin = 16
    /// How long a connection is kept unused before it closes.
    let idleLifetime: TimeAmount

    private struct State {
        var idle: [Origin: [HTTP1Connection]] = [:]
        var isShutDown = false
    }

    private let group: any EventLoopGroup
    /// One executor per event loop of the group, handed out in turn.
    let executors: [EventLoopExecutor]
    private let nextExecutor = LockedValue(0)
    private let state = LockedValue(State())
    private let tls: LockedValue<[Bool: NIOSSLContext]> = LockedValue([:])

    init(group: any EventLoopGroup, idleLifetime: Duration = .seconds(60)) {
        self.group = group
        self.idleLifetime = .nanoseconds(Int64(idleLifetime / .nanoseconds(1)))
        executors = group.makeIterator().map { EventLoopExecutor($0) }
    }

    /// The executor for a transfer of `url`: the event loop of an idle connection to its origin (the calling
    /// thread's loop first, if it has one), else the calling thread's loop when it is one of the group's (a transfer
    /// that ends starts the next one where it ran, waking no other thread), else the loop whose turn it is.
    func executor(for url: URL?, verifiesCertificates: Bool) -> EventLoopExecutor {
        let current = executors.first { $0.loop.inEventLoop }
        if let url, let origin = try? Self.origin(of: url, verifiesCertificates: verifiesCertificates).0 {
            let idleLoops = state.withLock { state in (state.idle[origin] ?? []).map { $0.channel.eventLoop } }
            if let current, idleLoops.contains(where: { $0 === current.loop }) { return current }
            if let idle = executors.first(where: { executor in idleLoops.contains { $0 === executor.loop } }) { return idle }
        }
        if let current { return current }
        return nextExecutor.withLock { index in
            defer { index = (index + 1) % executors.count }
            return executors[index]
        }
    }

    /// Sends a `GET` for `url` with `headers` and returns the response head and its body.
    /// - Parameters:
    ///   - timeout: The longest wait to connect, for the head and between reads of the body.
    ///   - maximumBodyBytes: A longer body fails with ``ImageDownloadError/Code/tooLarge`` as it arrives.
    ///   - loop: The event loop of the connection (the caller's, ideally).
    func get(
        _ url: URL, headers: HTTPHeaders, timeout: Duration, maximumBodyBytes: Int, verifiesCertificates: Bool,
        on loop: any EventLoop
    ) async throws -> (HTTPResponseHead, AsyncThrowingStream<ByteBuffer, any Error>) {
        let (origin, requestHead) = try Self.request(for: url, headers: headers, verifiesCertificates: verifiesCertificates)
        let limit = TimeAmount.nanoseconds(Int64(timeout / .nanoseconds(1)))
        if let reused = takeIdle(origin, on: loop) {
            do {
                return try await reused.exchange(requestHead, timeout: limit, maximumBodyBytes: maximumBodyBytes)
            } catch where Self.serverDroppedTheConnection(error) && !Task.isCancelled {
                // The server closed the idle connection as the request went out: once more on a new one.
            }
        }
        let connection = try await connect(origin, timeout: limit, on: loop)
        return try await connection.exchange(requestHead, timeout: limit, maximumBodyBytes: maximumBodyBytes)
    }

    /// Closes every idle connection (without waiting for the closes: an event-loop group the downloader owns waits
    /// for its channels when it shuts down); connections in use close when their exchange ends.
    func shutdown() {
        let idle = state.withLock { state in
            state.isShutDown = true
            defer { state.idle = [:] }
            return state.idle.values.flatMap { $0 }
        }
        for connection in idle { connection.channel.close(promise: nil) }
    }

    // MARK: Connections

    /// An open idle connection to `origin` on `loop`, taken out of the pool.
    private func takeIdle(_ origin: Origin, on loop: any EventLoop) -> HTTP1Connection? {
        state.withLock { state in
            while let index = state.idle[origin]?.lastIndex(where: { $0.channel.eventLoop === loop }),
                let connection = state.idle[origin]?.remove(at: index) {
                if connection.channel.isActive { return connection }
            }
            return nil
        }
    }

    /// Puts a connection whose exchange ended back for reuse (called on its event loop).
    fileprivate func release(_ connection: HTTP1Connection) {
        let kept = state.withLock { state in
            guard !state.isShutDown, state.idle[connection.origin, default: []].count < Self.maximumIdlePerOrigin else {
                return false
            }
            state.idle[connection.origin, default: []].append(connection)
            return true
        }
        if !kept { connection.channel.close(promise: nil) }
    }

    /// Forgets a connection that closed.
    fileprivate func remove(_ connection: HTTP1Connection) {
        state.withLock { state in
            state.idle[connection.origin]?.removeAll { $0 === connection }
        }
    }

    private func connect(_ origin: Origin, timeout: TimeAmount, on loop: any EventLoop) async throws -> HTTP1Connection {
        let context = origin.isTLS ? try tlsContext(verifiesCertificates: origin.verifiesCertificates) : nil
        let serverName = context != nil && !Self.isAddress(origin.host) ? origin.host : nil
        let idleLifetime = self.idleLifetime
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(timeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHTTP1ClientHandlers(tls: context, serverHostname: serverName)
                    try pipeline.addHandler(HTTP1ExchangeHandler(idleLifetime: idleLifetime))
                }
            }
        // An address needs no resolver (and its thread hop); a name goes through NIO's happy-eyeballs connector.
        let connecting = if let address = try? SocketAddress(ipAddress: origin.host, port: origin.port) {
            bootstrap.connect(to: address)
        } else {
            bootstrap.connect(host: origin.host, port: origin.port)
        }
        let channel = try await connecting.get()
        return try await channel.eventLoop.submit { [self] in
            let handler = try channel.pipeline.syncOperations.handler(type: HTTP1ExchangeHandler.self)
            let connection = HTTP1Connection(channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop), origin: origin)
            // The closure keeps the connection while its channel is open; closing breaks the cycle.
            handler.onReusable = { [weak self] in self?.release(connection) }
            channel.closeFuture.whenComplete { [weak self] _ in
                connection.handler.value.onReusable = nil
                self?.remove(connection)
            }
            return connection
        }.get()
    }

    private func tlsContext(verifiesCertificates: Bool) throws -> NIOSSLContext {
        try tls.withLock { contexts in
            if let context = contexts[verifiesCertificates] { return context }
            var configuration = TLSConfiguration.makeClientConfiguration()
            if !verifiesCertificates { configuration.certificateVerification = .none }
            let context = try NIOSSLContext(configuration: configuration)
            contexts[verifiesCertificates] = context
            return context
        }
    }

    // MARK: Requests

    /// The origin and the request head of a `GET` for `url`: the path and query as the URL spells them, a
    /// `Host` header, then `headers` (any `Host` or `Connection` among them left out).
    static func request(
        for url: URL, headers: HTTPHeaders, verifiesCertificates: Bool
    ) throws -> (Origin, HTTPRequestHead) {
        let (origin, defaultPort) = try Self.origin(of: url, verifiesCertificates: verifiesCertificates)
        let (bareHost, port) = (origin.host, origin.port)
        let path = url.path(percentEncoded: true)
        var target = path.isEmpty ? "/" : path
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target)
        // An IPv6 literal goes back in brackets. (A byte search: `String.contains(String)` is Foundation's, a
        // hundredth of a download's CPU.)
        let authority = bareHost.utf8.contains(UInt8(ascii: ":")) ? "[\(bareHost)]" : bareHost
        head.headers.add(name: "Host", value: port == defaultPort ? authority : "\(authority):\(port)")
        for header in headers where !Self.isHostOrConnection(header.name) {
            head.headers.add(name: header.name, value: header.value)
        }
        return (origin, head)
    }

    /// The origin of an http(s) `url` (its host without IPv6 brackets) and its scheme's default port.
    private static func origin(of url: URL, verifiesCertificates: Bool) throws -> (Origin, defaultPort: Int) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host(percentEncoded: false), !host.isEmpty
        else {
            throw ImageDownloadError(.invalidURL, "\(url.absoluteString) is not an http(s) URL")
        }
        let isTLS = scheme == "https"
        let defaultPort = isTLS ? 443 : 80
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let origin = Origin(isTLS: isTLS, host: bareHost, port: url.port ?? defaultPort, verifiesCertificates: verifiesCertificates)
        return (origin, defaultPort)
    }

    /// Whether `name` is `Host` or `Connection`, in any case, without making a lower-cased copy.
    private static func isHostOrConnection(_ name: String) -> Bool {
        func equalsIgnoringCase(_ lowercase: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
            return name.utf8.count == expected.count && zip(name.utf8, expected).allSatisfy { $0 | 0x20 == $1 }
        }
        return equalsIgnoringCase("host") || equalsIgnoringCase("connection")
    }

    /// Whether an exchange failed before its head because the connection closed or was reset.
    private static func serverDroppedTheConnection(_ error: any Error) -> Bool {
        if case HTTP1ConnectionError.closed = error { return true }
        return error is IOError || error is ChannelError
    }

    private static func isAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}

/// One kept-alive connection and its exchange handler.
final class HTTP1Connection: Sendable {
    let channel: any Channel
    let handler: NIOLoopBound<HTTP1ExchangeHandler>
    let origin: HTTP1ConnectionPool.Origin

    init(channel: any Channel, handler: NIOLoopBound<HTTP1ExchangeHandler>, origin: HTTP1ConnectionPool.Origin) {
        self.channel = channel
        self.handler = handler
        self.origin = origin
    }

    /// Sends `head` and waits for the response head; the body follows in the stream. Cancelling the calling task
    /// before the head arrives, or ending the body's iteration early, closes the connection.
    func exchange(
        _ head: HTTPRequestHead, timeout: TimeAmount, maximumBodyBytes: Int
    ) async throws -> (HTTPResponseHead, AsyncThrowingStream<ByteBuffer, any Error>) {
        let (body, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        let eventLoop = channel.eventLoop
        let responseHead = eventLoop.makePromise(of: HTTPResponseHead.self)
        let handler = self.handler
        let channel = self.channel
        let exchange = HTTP1Exchange()
        let send = {
            var headPending = true
            handler.value.begin(exchange, { event in
                switch event {
                case .success(.head(let head)):
                    headPending = false
                    responseHead.succeed(head)
                case .success(.body(let buffer)):
                    continuation.yield(buffer)
                case .success(.end):
                    continuation.finish()
                case .failure(let error):
                    if headPending { responseHead.fail(error) }
                    continuation.finish(throwing: error)
                }
            }, timeout: timeout, maximumBodyBytes: maximumBodyBytes)
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        }
        // A transfer runs on its connection's loop (ImageDownloader.startReady): the request goes out now, not
        // as a task the loop runs next.
        if eventLoop.inEventLoop { send() } else { eventLoop.execute(send) }
        continuation.onTermination = { termination in
            if case .cancelled = termination { eventLoop.execute { handler.value.abandon(exchange) } }
        }
        return try await withTaskCancellationHandler {
            (try await responseHead.futureResult.get(), body)
        } onCancel: {
            eventLoop.execute { handler.value.abandon(exchange) }
        }
    }
}
