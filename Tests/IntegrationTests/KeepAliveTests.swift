import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing
@testable import WebImageKit
import WebImageTestSupport

/// The downloader's own HTTP/1.1 client against an origin that counts its connections: kept-alive connections
/// are reused, a connection the server closes is not, and a request the server drops on a reused connection is
/// sent again on a new one. Idle connections are kept for an hour here: under the thread sanitizer a starved
/// test can pause for over a minute between two downloads, longer than the default idle lifetime.
@Suite struct KeepAliveTests {
    static var configuration: ImageDownloader.Configuration {
        var configuration = ImageDownloader.Configuration()
        configuration.idleConnectionLifetime = .seconds(3600)
        return configuration
    }

    @Test func downloadsOneAfterAnotherShareOneConnection() async throws {
        try await CountingOrigin.with(.keepAlive) { origin, base in
            try await withImageDownloader(configuration: Self.configuration) { downloader in
                for index in 0..<5 {
                    _ = try await downloader.data(for: base.appendingPathComponent("\(index).png"))
                }
            }
            #expect(origin.counts == .init(connections: 1, requests: 5))
        }
    }

    @Test func aResponseSayingConnectionCloseIsFollowedByANewConnection() async throws {
        try await CountingOrigin.with(.closeAfterEachResponse) { origin, base in
            try await withImageDownloader(configuration: Self.configuration) { downloader in
                for index in 0..<3 {
                    _ = try await downloader.data(for: base.appendingPathComponent("\(index).png"))
                }
            }
            #expect(origin.counts == .init(connections: 3, requests: 3))
        }
    }

    @Test func aRequestTheServerDropsOnAReusedConnectionIsSentAgainOnANewOne() async throws {
        try await CountingOrigin.with(.dropSecondRequestOfEachConnection) { origin, base in
            try await withImageDownloader(configuration: Self.configuration) { downloader in
                let first = try await downloader.data(for: base.appendingPathComponent("first.png"))
                let second = try await downloader.data(for: base.appendingPathComponent("second.png"))
                #expect(first.data == second.data)
            }
            // The second request went out twice: dropped on the first connection, answered on a new one.
            #expect(origin.counts == .init(connections: 2, requests: 3))
        }
    }

    @Test func theRequestCarriesTheHostWithItsPortAndThePathAndQueryAsSpelled() async throws {
        try await CountingOrigin.with(.keepAlive) { origin, base in
            try await withImageDownloader(configuration: Self.configuration) { downloader in
                let url = try #require(URL(string: "\(base)/a%20b/c.png?size=2&name=x%2Fy"))
                _ = try await downloader.data(for: url)
            }
            let request = try #require(origin.requests.first)
            #expect(request.uri == "/a%20b/c.png?size=2&name=x%2Fy")
            #expect(request.headers["host"] == ["127.0.0.1:\(base.port ?? 0)"])
        }
    }
}

/// An HTTP/1.1 origin on 127.0.0.1 that answers every `GET` with a small PNG and counts connections and requests.
final class CountingOrigin: Sendable {
    /// How the origin treats its connections.
    enum Behaviour: Sendable {
        /// Keeps every connection open for more requests.
        case keepAlive
        /// Answers with `Connection: close` and closes.
        case closeAfterEachResponse
        /// Closes a connection, unanswered, when its second request arrives.
        case dropSecondRequestOfEachConnection
    }

    struct Counts: Equatable, Sendable {
        var connections = 0
        var requests = 0
    }

    let behaviour: Behaviour
    let png: Data
    private let state = LockedValue<(counts: Counts, requests: [HTTPRequestHead])>((Counts(), []))

    var counts: Counts { state.withLock { $0.counts } }
    var requests: [HTTPRequestHead] { state.withLock { $0.requests } }

    private init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        png = try ImageCodersManager.shared.encode(
            Image(pixels: PixelBuffer(width: 4, height: 4, fill: RGBA(red: 1, green: 2, blue: 3))), as: .png, options: .init())
    }

    /// Runs `body` with an origin listening; closes it afterwards.
    static func with(_ behaviour: Behaviour, _ body: (CountingOrigin, URL) async throws -> Void) async throws {
        let origin = try CountingOrigin(behaviour)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                origin.state.withLock { $0.counts.connections += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(origin: origin))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        defer { channel.close(promise: nil) }
        let port = try #require(channel.localAddress?.port)
        try await body(origin, try #require(URL(string: "http://127.0.0.1:\(port)")))
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let origin: CountingOrigin
        var requestsOnThisConnection = 0

        init(origin: CountingOrigin) { self.origin = origin }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                requestsOnThisConnection += 1
                origin.state.withLock { $0.counts.requests += 1; $0.requests.append(head) }
            case .body:
                break
            case .end:
                if origin.behaviour == .dropSecondRequestOfEachConnection, requestsOnThisConnection == 2 {
                    context.close(promise: nil)
                    return
                }
                var headers = HTTPHeaders([("Content-Type", "image/png"), ("Content-Length", "\(origin.png.count)")])
                let closes = origin.behaviour == .closeAfterEachResponse
                if closes { headers.add(name: "Connection", value: "close") }
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: origin.png)))), promise: nil)
                if closes {
                    context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
                } else {
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                }
            }
        }
    }
}
