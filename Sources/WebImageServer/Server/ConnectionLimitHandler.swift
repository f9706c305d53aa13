import NIOConcurrencyHelpers
import NIOCore

/// The number of client connections open now, against a limit (imgproxy's `IMGPROXY_MAX_CLIENTS`).
final class ConnectionCount: Sendable {
    let limit: Int
    private let open = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection; false when the limit is reached (the connection is then not counted).
    func admit() -> Bool {
        open.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Uncounts a connection that closed.
    func release() {
        open.withLockedValue { $0 -= 1 }
    }

    /// The connections open now.
    var current: Int { open.withLockedValue { $0 } }
}

/// Closes a client connection at once when the server already has as many as it allows.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny
    let clients: ConnectionCount
    private let admitted = NIOLockedValueBox(false)

    init(limit clients: ConnectionCount) {
        self.clients = clients
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if admitted.withLockedValue({ value in defer { value = false }; return value }) { clients.release() }
        context.fireChannelInactive()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !admitted.withLockedValue({ $0 }) else { return }
        if clients.admit() {
            admitted.withLockedValue { $0 = true }
        } else {
            context.close(promise: nil)
        }
    }
}
