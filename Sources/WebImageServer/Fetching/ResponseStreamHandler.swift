import Foundation
import NIOCore
import NIOHTTP1

/// Receives one HTTP/1.1 response on a connection of its own: completes `head` with the response head, then
/// yields the body to `body` and finishes it at the end; closes the connection when the body ends, the reader
/// stops reading, the read timeout passes or anything fails.
///
/// The body is gathered here, on the connection's event loop, and yielded in pieces of up to
/// ``coalescedBytes`` (the rest at the end) rather than one piece per socket read: a 370 KB source arrives in
/// a dozen reads, and each piece yielded wakes the task reading the stream on another thread (issue 33).
final class ResponseStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    /// The bytes gathered before they are yielded: a bound on what this handler holds.
    static let coalescedBytes = 512 * 1024

    private let head: EventLoopPromise<HTTPResponseHead>
    private let body: AsyncThrowingStream<Data, any Error>.Continuation
    private var headReceived = false
    private var finished = false
    /// Body bytes received and not yet yielded.
    private var pending = Data()

    init(head: EventLoopPromise<HTTPResponseHead>, body: AsyncThrowingStream<Data, any Error>.Continuation) {
        self.head = head
        self.body = body
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let responseHead):
            headReceived = true
            let length = responseHead.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
            pending.reserveCapacity(min(max(length, 0), Self.coalescedBytes))
            head.succeed(responseHead)
        case .body(let buffer):
            pending.append(contentsOf: buffer.readableBytesView)
            if pending.count >= Self.coalescedBytes { yieldPending() }
        case .end:
            yieldPending()
            finish(context: context, error: nil)
        }
    }

    /// Yields the bytes gathered so far, if any.
    private func yieldPending() {
        guard !pending.isEmpty else { return }
        body.yield(pending)
        pending = Data()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            finish(context: context, error: SourceFetchError.timeout)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(context: context, error: error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !finished {
            finished = true
            let error = SourceFetchError.connectionClosed
            if !headReceived { head.fail(error) }
            body.finish(throwing: error)
        }
        context.fireChannelInactive()
    }

    private func finish(context: ChannelHandlerContext, error: (any Error)?) {
        guard !finished else { return }
        finished = true
        if let error {
            if !headReceived { head.fail(error) }
            body.finish(throwing: error)
        } else {
            body.finish()
        }
        context.close(promise: nil)
    }
}

/// Why a source connection ended early.
enum SourceFetchError: Error, Sendable, CustomStringConvertible {
    /// No byte arrived within the timeout.
    case timeout
    /// The source closed the connection before the response ended.
    case connectionClosed

    var description: String {
        switch self {
        case .timeout: "the source did not answer in time"
        case .connectionClosed: "the source closed the connection early"
        }
    }
}
