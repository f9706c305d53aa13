import AsyncHTTPClient
import Logging
import NIOCore
import WebImageCore

/// The downloader's HTTP clients. The timeout and the redirect limit are settings of an `HTTPClient`, not
/// of a request, so when ``ImageDownloader/configuration`` changes them the next transfer gets a new
/// client and the old one is shut down once its last transfer has ended.
final class HTTPClients: Sendable {
    /// What a client is built from.
    struct Settings: Equatable, Sendable {
        let timeout: Duration
        let maximumRedirects: Int

        init(_ configuration: ImageDownloader.Configuration) {
            timeout = configuration.effectiveTimeout
            maximumRedirects = configuration.maximumRedirects
        }
    }

    /// A client lent to one transfer; give it back with ``HTTPClients/release(_:)``.
    struct Lease: Sendable {
        let client: HTTPClient
        fileprivate let id: UInt64
    }

    private struct Entry {
        let client: HTTPClient
        let settings: Settings
        var transfers = 0
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var currentID: UInt64?
        var nextID: UInt64 = 0
        /// Shut-downs of replaced clients, awaited by ``HTTPClients/shutdown()``.
        var closing: [Task<Void, Never>] = []
    }

    private let group: any EventLoopGroup
    private let logger: Logger
    private let state = LockedValue(State())

    init(group: any EventLoopGroup, logger: Logger) {
        self.group = group
        self.logger = logger
    }

    /// A client built from `settings`: the current one when its settings match, else a new one that
    /// replaces it for every later transfer.
    func lease(for settings: Settings) -> Lease {
        let (lease, replaced) = state.withLock { state -> (Lease, HTTPClient?) in
            if let id = state.currentID, let entry = state.entries[id], entry.settings == settings {
                state.entries[id]?.transfers += 1
                return (Lease(client: entry.client, id: id), nil)
            }
            var replaced: HTTPClient?
            if let old = state.currentID, state.entries[old]?.transfers == 0 {
                replaced = state.entries.removeValue(forKey: old)?.client
            }
            state.nextID += 1
            let id = state.nextID
            let client = makeClient(settings)
            state.entries[id] = Entry(client: client, settings: settings, transfers: 1)
            state.currentID = id
            return (Lease(client: client, id: id), replaced)
        }
        if let replaced { close(replaced) }
        return lease
    }

    /// Ends a transfer's use of its client; a replaced client with no transfers left is shut down.
    func release(_ lease: Lease) {
        let idle: HTTPClient? = state.withLock { state in
            state.entries[lease.id]?.transfers -= 1
            guard lease.id != state.currentID, state.entries[lease.id]?.transfers == 0 else { return nil }
            return state.entries.removeValue(forKey: lease.id)?.client
        }
        if let idle { close(idle) }
    }

    /// Shuts every client down; call it once, after every transfer has ended.
    func shutdown() async throws {
        let (clients, closing) = state.withLock { state in
            defer {
                state.entries = [:]
                state.currentID = nil
                state.closing = []
            }
            return (state.entries.values.map(\.client), state.closing)
        }
        for task in closing { await task.value }
        for client in clients { try await client.shutdown() }
    }

    private func close(_ client: HTTPClient) {
        let task = Task<Void, Never> { try? await client.shutdown() }
        state.withLock { $0.closing.append(task) }
    }

    private func makeClient(_ settings: Settings) -> HTTPClient {
        let timeout = TimeAmount.nanoseconds(Int64(settings.timeout / .nanoseconds(1)))
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: settings.maximumRedirects > 0
                ? .follow(max: settings.maximumRedirects, allowCycles: false) : .disallow,
            timeout: .init(connect: timeout, read: timeout)
        )
        configuration.httpVersion = .automatic
        // A refused connection or a failed TLS handshake fails the request at once instead of being
        // retried by the pool until the timeout: ``RetryPolicy`` is the one place retries are decided.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: group, configuration: configuration, backgroundActivityLogger: logger)
    }
}
