import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import WebImageKit

/// The last handler of the downloader's kept-alive connections, driven on an embedded channel: one exchange at a
/// time, timeouts counted from the last byte, idle connections closed, and a late abandon of an exchange that
/// already ended leaving the next one alone.
@Suite struct HTTP1ExchangeHandlerTests {
    /// What one exchange's sink received.
    final class Received {
        var heads = 0
        var bodyBytes = 0
        var ended = false
        var error: (any Error)?

        func sink(_ event: Result<HTTP1ResponseEvent, any Error>) {
            switch event {
            case .success(.head): heads += 1
            case .success(.body(let buffer)): bodyBytes += buffer.readableBytes
            case .success(.end): ended = true
            case .failure(let error): self.error = error
            }
        }
    }

    static func connectedChannel() throws -> (EmbeddedChannel, HTTP1ExchangeHandler) {
        let handler = HTTP1ExchangeHandler()
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        return (channel, handler)
    }

    static func respond(_ channel: EmbeddedChannel, bytes: Int, headers: HTTPHeaders = [:]) throws {
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(repeating: 7, count: bytes)))
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
    }

    @Test func aResponseReachesItsExchangeAndFreesTheConnection() throws {
        let (channel, handler) = try Self.connectedChannel()
        var reusable = 0
        handler.onReusable = { reusable += 1 }
        let received = Received()
        handler.begin(HTTP1Exchange(), received.sink, timeout: .seconds(5))
        try Self.respond(channel, bytes: 100)
        #expect(received.heads == 1 && received.bodyBytes == 100 && received.ended && received.error == nil)
        #expect(reusable == 1 && channel.isActive)
    }

    @Test func abandoningAnExchangeThatEndedLeavesTheNextOneOnTheConnectionRunning() throws {
        let (channel, handler) = try Self.connectedChannel()
        let first = HTTP1Exchange()
        handler.begin(first, Received().sink, timeout: .seconds(5))
        try Self.respond(channel, bytes: 10)
        let second = Received()
        let secondExchange = HTTP1Exchange()
        handler.begin(secondExchange, second.sink, timeout: .seconds(5))
        handler.abandon(first)
        #expect(channel.isActive && second.error == nil)
        try Self.respond(channel, bytes: 20)
        #expect(second.ended && second.bodyBytes == 20)
    }

    @Test func abandoningTheCurrentExchangeEndsItAsCancelledAndClosesTheConnection() throws {
        let (channel, handler) = try Self.connectedChannel()
        let received = Received()
        let exchange = HTTP1Exchange()
        handler.begin(exchange, received.sink, timeout: .seconds(5))
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        handler.abandon(exchange)
        #expect(received.error is CancellationError)
        #expect(!channel.isActive)
    }

    @Test func noByteWithinTheTimeoutEndsTheExchangeAsTimedOutCountingFromTheLastByte() throws {
        let (channel, handler) = try Self.connectedChannel()
        let received = Received()
        handler.begin(HTTP1Exchange(), received.sink, timeout: .seconds(2))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1500))
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1500))  // 3 s since the start, 1.5 s since the head
        #expect(received.error == nil && channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(600))
        #expect((received.error as? HTTP1ConnectionError).map { "\($0)" } == "\(HTTP1ConnectionError.timedOut)")
        #expect(!channel.isActive)
    }

    @Test func aConnectionLeftIdleForItsLifetimeCloses() throws {
        let (channel, handler) = try Self.connectedChannel()
        handler.begin(HTTP1Exchange(), Received().sink, timeout: .seconds(5))
        try Self.respond(channel, bytes: 1)
        channel.embeddedEventLoop.advanceTime(by: handler.idleLifetime - .seconds(1))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test func aResponseSayingConnectionCloseIsNotReused() throws {
        let (channel, handler) = try Self.connectedChannel()
        var reusable = 0
        handler.onReusable = { reusable += 1 }
        handler.begin(HTTP1Exchange(), Received().sink, timeout: .seconds(5))
        try Self.respond(channel, bytes: 1, headers: ["Connection": "close"])
        #expect(reusable == 0 && !channel.isActive)
    }

    @Test func aBodyOverTheLimitEndsTheExchangeAsTooLargeAndClosesTheConnection() throws {
        let (channel, handler) = try Self.connectedChannel()
        let received = Received()
        handler.begin(HTTP1Exchange(), received.sink, timeout: .seconds(5), maximumBodyBytes: 100)
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(repeating: 1, count: 60)))
        _ = try? channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(repeating: 1, count: 60)))
        #expect((received.error as? ImageDownloadError)?.code == .tooLarge)
        #expect(received.bodyBytes == 60 && !channel.isActive)
    }

    @Test func anExchangeBegunOnAConnectionThatAlreadyClosedEndsAtOnceWithClosed() throws {
        let (channel, handler) = try Self.connectedChannel()
        try channel.close().wait()
        let received = Received()
        handler.begin(HTTP1Exchange(), received.sink, timeout: .seconds(5))
        #expect((received.error as? HTTP1ConnectionError).map { "\($0)" } == "\(HTTP1ConnectionError.closed)")
    }

    @Test func theConnectionClosingMidResponseEndsTheExchangeWithClosed() throws {
        let (channel, handler) = try Self.connectedChannel()
        let received = Received()
        handler.begin(HTTP1Exchange(), received.sink, timeout: .seconds(5))
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        channel.pipeline.fireChannelInactive()
        #expect((received.error as? HTTP1ConnectionError).map { "\($0)" } == "\(HTTP1ConnectionError.closed)")
    }
}
