import Foundation
import NIOCore
import NIOHTTP1

/// Receives one HTTP/1.1 response on a connection of its own: completes `head` with the response head, then
/// yields the body's chunks to `body` and finishes it at the end; closes the connection when the body ends, the
/// reader stops reading, the read timeout passes or anything fails.
final class ResponseStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let head: EventLoopPromise<HTTPResponseHead>
    private let body: AsyncThrowingStream<Data, any Error>.Continuation
    private var headReceived = false
    private var finished = false

    init(head: EventLoopPromise<HTTPResponseHead>, body: AsyncThrowingStream<Data, any Error>.Continuation) {
        self.head = head
        self.body = body
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let responseHead):
            headReceived = true
            head.succeed(responseHead)
        case .body(let buffer):
            body.yield(Data(buffer.readableBytesView))
        case .end:
            finish(context: context, error: nil)
        }
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
