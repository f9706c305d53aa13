import Foundation
import NIOCore
import NIOHTTP1

/// One response's parts as the connection delivers them.
enum HTTP1ResponseEvent: Sendable {
    case head(HTTPResponseHead)
    case body(ByteBuffer)
    case end
}

/// The last handler of a kept-alive HTTP/1.1 connection: it receives one response at a time for the exchange
/// ``begin(_:timeout:)`` started, hands its parts to that exchange's sink, and once the response has ended (and
/// both sides allow it) tells its ``HTTP1Connection`` that the connection is free for the next request.
///
/// The read timeout is the longest wait for the first byte of the head and between reads of the body. A connection
/// left idle for its ``idleLifetime`` closes (and so leaves the pool), as does one the server closes.
final class HTTP1ExchangeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    /// How long a connection waits idle for its next request before it closes.
    let idleLifetime: TimeAmount

    init(idleLifetime: TimeAmount = .seconds(60)) {
        self.idleLifetime = idleLifetime
    }

    /// Where one exchange's parts go; `nil` with an error ends it (the error is the cause).
    typealias Sink = (Result<HTTP1ResponseEvent, any Error>) -> Void

    private var sink: Sink?
    /// The exchange the sink belongs to: a late ``abandon(_:)`` of an earlier exchange does nothing.
    private var exchange: HTTP1Exchange?
    private var keepAlive = true
    private var timeout = TimeAmount.seconds(15)
    /// The most body bytes the current exchange takes; more fail it (the reader may be slower than the network).
    private var maximumBodyBytes = Int.max
    private var bodyBytes = 0
    private var lastRead = NIODeadline.uptimeNanoseconds(0)
    private var timer: Scheduled<Void>?
    /// Which scheduling of the timer is current: a callback of an earlier one (cancelled too late) does nothing.
    private var timerGeneration = 0
    private weak var context: ChannelHandlerContext?
    /// Called on the event loop when a response ended and the connection may carry another request.
    var onReusable: (() -> Void)?

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    /// Starts an exchange: the response parts that arrive from now on go to `sink`; a body longer than
    /// `maximumBodyBytes` ends it with ``ImageDownloadError/Code/tooLarge``.
    func begin(_ exchange: HTTP1Exchange, _ sink: @escaping Sink, timeout: TimeAmount, maximumBodyBytes: Int = .max) {
        precondition(self.sink == nil, "an HTTP/1.1 connection carries one exchange at a time")
        self.exchange = exchange
        self.sink = sink
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
        bodyBytes = 0
        keepAlive = true
        lastRead = now
        timer?.cancel()
        guard context?.channel.isActive == true else {
            // Closed between leaving the pool and this request: no event would come but the timer's.
            fail(HTTP1ConnectionError.closed)
            return
        }
        scheduleTimer(at: lastRead + timeout)
    }

    /// Abandons the current exchange (its caller was cancelled or stopped reading): the exchange ends with a
    /// `CancellationError` and, as the rest of the response is never read, the connection closes.
    func abandon(_ exchange: HTTP1Exchange) {
        guard sink != nil, self.exchange === exchange else { return }
        fail(CancellationError())
        context?.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastRead = now
        let part = unwrapInboundIn(data)
        guard let sink else {
            context.close(promise: nil)  // bytes no request asked for
            return
        }
        switch part {
        case .head(let head):
            keepAlive = head.isKeepAlive
            sink(.success(.head(head)))
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
            guard bodyBytes <= maximumBodyBytes else {
                fail(ImageDownloadError(.tooLarge, "the body exceeds the limit of \(maximumBodyBytes) bytes"))
                context.close(promise: nil)
                return
            }
            sink(.success(.body(buffer)))
        case .end:
            // The connection is back in the pool before the exchange hears of the end, so that a caller it
            // completes finds it there for its next request.
            self.sink = nil
            timer?.cancel()
            if keepAlive, context.channel.isActive {
                scheduleTimer(at: now + idleLifetime)
                onReusable?()
            } else {
                context.close(promise: nil)
            }
            sink(.success(.end))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(HTTP1ConnectionError.closed)
        context.fireChannelInactive()
    }

    private func fail(_ error: any Error) {
        guard let sink else { return }
        self.sink = nil
        timer?.cancel()
        sink(.failure(error))
    }

    /// The event loop's clock (a test's embedded loop has its own).
    private var now: NIODeadline { context?.eventLoop.now ?? .now() }

    private func scheduleTimer(at deadline: NIODeadline) {
        guard let context else { return }
        timerGeneration &+= 1
        let generation = timerGeneration
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) { [weak self] in
            self?.timerFired(generation)
        }
    }

    private func timerFired(_ generation: Int) {
        guard generation == timerGeneration else { return }
        guard sink != nil else {
            context?.close(promise: nil)  // idle for the whole lifetime
            return
        }
        let due = lastRead + timeout
        if due > now {
            scheduleTimer(at: due)
        } else {
            fail(HTTP1ConnectionError.timedOut)
            context?.close(promise: nil)
        }
    }
}

/// The identity of one request and response on a connection.
final class HTTP1Exchange: Sendable {}

/// Why an exchange on a kept-alive connection ended without its response.
enum HTTP1ConnectionError: Error, Sendable, CustomStringConvertible {
    /// No byte arrived within the timeout.
    case timedOut
    /// The connection closed before the response ended.
    case closed

    var description: String {
        switch self {
        case .timedOut: "the server did not answer in time"
        case .closed: "the server closed the connection before the response ended"
        }
    }
}
