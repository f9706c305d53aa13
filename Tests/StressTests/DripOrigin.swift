import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP origin on 127.0.0.1 that lives on NIO's event loops alone (no Swift concurrency), so it keeps
/// serving while every cooperative thread is blocked. Every GET gets `body`, sent in `chunkSize` pieces
/// `gap` apart: a transfer whose reader stops reading hits its idle timeout.
final class DripOrigin: Sendable {
    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    init(body: Data, chunkSize: Int, gap: TimeAmount) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bytes = [UInt8](body)
        do {
            channel = try ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(
                            DripHandler(body: bytes, chunkSize: chunkSize, gap: gap))
                    }
                }
                .bind(host: "127.0.0.1", port: 0).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        self.group = group
        port = channel.localAddress?.port ?? 0
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)")!
    }

    func shutdown() async throws {
        try await channel.close()
        try await group.shutdownGracefully()
    }
}

private final class DripHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let body: [UInt8]
    let chunkSize: Int
    let gap: TimeAmount

    init(body: [UInt8], chunkSize: Int, gap: TimeAmount) {
        self.body = body
        self.chunkSize = chunkSize
        self.gap = gap
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var head = HTTPResponseHead(version: .http1_1, status: .ok)
        head.headers.add(name: "content-type", value: "image/png")
        head.headers.add(name: "content-length", value: "\(body.count)")
        context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
        sendChunk(from: 0, context: context)
    }

    private func sendChunk(from offset: Int, context: ChannelHandlerContext) {
        guard offset < body.count else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let end = min(offset + chunkSize, body.count)
        let buffer = context.channel.allocator.buffer(bytes: body[offset..<end])
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let loop = context.eventLoop.assumeIsolated()
        loop.scheduleTask(in: gap) { [self] in sendChunk(from: end, context: context) }
    }
}
