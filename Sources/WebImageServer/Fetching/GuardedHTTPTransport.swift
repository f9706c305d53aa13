import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import WebImageKit

/// The server's HTTP client for sources: it checks every URL (the first and each redirect) against the
/// ``SourceURLPolicy``, resolves host names itself and connects only to an address the policy allows, so a
/// host name that resolves to a private or metadata address, or a redirect to one, is refused at connect
/// time, however the name was spelled or when its DNS answer changed.
///
/// One connection per request (`Connection: close`): sources are cached, so connection reuse matters little,
/// and a connection is never shared between hosts whose addresses were checked separately.
struct GuardedHTTPTransport: DownloadTransport {
    let policy: SourceURLPolicy
    let maximumRedirects: Int
    let group: any EventLoopGroup
    let tls: NIOSSLContext

    /// A transport; `verifiesCertificates: false` accepts any certificate from an `https` source (imgproxy's
    /// `IMGPROXY_IGNORE_SSL_VERIFICATION`).
    init(
        policy: SourceURLPolicy, maximumRedirects: Int, verifiesCertificates: Bool = true,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) throws {
        self.policy = policy
        self.maximumRedirects = maximumRedirects
        self.group = group
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        if !verifiesCertificates { tlsConfiguration.certificateVerification = .none }
        tls = try NIOSSLContext(configuration: tlsConfiguration)
    }

    func send(_ request: DownloadRequest, timeout: Duration) async throws -> (DownloadResponse, AsyncThrowingStream<Data, any Error>) {
        var url = request.url
        var redirects = 0
        while true {
            let source = try checked(url)
            let (head, body) = try await fetch(source, headers: request.headers, timeout: timeout)
            let status = Int(head.status.code)
            let location = head.headers.first(name: "location")
            if [301, 302, 303, 307, 308].contains(status), let location {
                guard redirects < maximumRedirects else {
                    throw ImageDownloadError(.tooManyRedirects, "the source redirected more than \(maximumRedirects) times")
                }
                guard let next = URL(string: location, relativeTo: url)?.absoluteURL else {
                    throw ImageDownloadError(.network, "the source redirected to an invalid URL")
                }
                redirects += 1
                url = next
                continue
            }
            let headers = Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }) { "\($0), \($1)" }
            return (DownloadResponse(url: url, statusCode: status, headers: headers), body)
        }
    }

    /// The policy's verdict on `url`, as a download error that keeps the reason.
    private func checked(_ url: URL) throws -> SourceURL {
        do {
            return try policy.check(url.absoluteString)
        } catch {
            throw ImageDownloadError(.rejected, error.message, underlying: error)
        }
    }

    /// The addresses of `source` the policy allows; a refusal when there are none.
    private func allowedAddresses(of source: SourceURL) async throws -> [SocketAddress] {
        switch source.host {
        case .address(let address):
            let text = address.description
            return [try SocketAddress(ipAddress: text, port: source.port)]
        case .name(let name):
            let resolved: [ResolvedAddress]
            do {
                resolved = try await HostResolver.resolve(name, port: source.port)
            } catch {
                throw ImageDownloadError(.network, "the source host could not be resolved", underlying: error)
            }
            let allowed = resolved.filter { policy.addressPolicy.allows($0.address) }
            if allowed.isEmpty, let refused = resolved.first {
                let error = SourceURLError.refused(AddressClass(refused.address))
                throw ImageDownloadError(.rejected, error.message, underlying: error)
            }
            guard !allowed.isEmpty else { throw ImageDownloadError(.network, "the source host has no address") }
            return allowed.map(\.socketAddress)
        }
    }

    /// Connects to the first allowed address that answers, sends the request and waits for the response head.
    private func fetch(
        _ source: SourceURL, headers: [String: String], timeout: Duration
    ) async throws -> (HTTPResponseHead, AsyncThrowingStream<Data, any Error>) {
        var lastError: (any Error)?
        for address in try await allowedAddresses(of: source) {
            try Task.checkCancellation()
            do {
                return try await fetch(source, at: address, headers: headers, timeout: timeout)
            } catch let error as ImageDownloadError {
                throw error
            } catch {
                lastError = error
            }
        }
        throw ImageDownloadError(.network, "the source could not be reached", underlying: lastError)
    }

    private func fetch(
        _ source: SourceURL, at address: SocketAddress, headers: [String: String], timeout: Duration
    ) async throws -> (HTTPResponseHead, AsyncThrowingStream<Data, any Error>) {
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let eventLoop = group.next()
        let headPromise = eventLoop.makePromise(of: HTTPResponseHead.self)
        let hostName: String? = if case .name(let name) = source.host { name } else { nil }
        let tls = source.scheme == "https" ? self.tls : nil
        let readTimeout = TimeAmount.nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: eventLoop)
                .connectTimeout(readTimeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHTTP1ClientHandlers(tls: tls, serverHostname: hostName)
                        try pipeline.addHandler(IdleStateHandler(readTimeout: readTimeout))
                        try pipeline.addHandler(ResponseStreamHandler(head: headPromise, body: continuation))
                    }
                }
                .connect(to: address).get()
        } catch {
            headPromise.fail(error)
            continuation.finish(throwing: error)
            throw error
        }
        continuation.onTermination = { _ in channel.close(promise: nil) }
        var requestHead = HTTPRequestHead(version: .http1_1, method: .GET, uri: source.path + (source.query.map { "?" + $0 } ?? ""))
        let defaultPort = source.scheme == "https" ? 443 : 80
        let authority = switch source.host {
        case .name(let name): name
        case .address(let address): if case .v6 = address { "[\(address)]" } else { "\(address)" }
        }
        requestHead.headers.add(name: "Host", value: source.port == defaultPort ? authority : "\(authority):\(source.port)")
        for (name, value) in headers where name.lowercased() != "host" && name.lowercased() != "connection" {
            requestHead.headers.add(name: name, value: value)
        }
        requestHead.headers.add(name: "Connection", value: "close")
        channel.write(HTTPClientRequestPart.head(requestHead), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        do {
            let head = try await withTaskCancellationHandler {
                try await headPromise.futureResult.get()
            } onCancel: {
                channel.close(promise: nil)
            }
            return (head, body)
        } catch SourceFetchError.timeout {
            throw ImageDownloadError(.timeout, "the source did not answer in time")
        }
    }
}
