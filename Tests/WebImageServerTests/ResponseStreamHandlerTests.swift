import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import WebImageServer

/// The source connection's handler gathers the body on the event loop and yields it in few pieces (issue 33).
@Suite struct ResponseStreamHandlerTests {
    /// Feeds `chunks` body parts of `chunkSize` bytes (byte i of the body is i mod 251) after a head with the
    /// total as its Content-Length, then the end, unless `ends` is false (the connection then closes early);
    /// returns the pieces the stream yielded, or the error it finished with.
    static func pieces(chunks: Int, chunkSize: Int, ends: Bool = true) async throws -> Result<[Data], any Error> {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let channel = EmbeddedChannel()
        let head = channel.eventLoop.makePromise(of: HTTPResponseHead.self)
        try channel.pipeline.syncOperations.addHandler(ResponseStreamHandler(head: head, body: continuation))
        var headers = HTTPHeaders()
        headers.add(name: "content-length", value: String(chunks * chunkSize))
        try channel.writeInbound(HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
        for index in 0..<chunks {
            let bytes = (0..<chunkSize).map { UInt8((index * chunkSize + $0) % 251) }
            try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(bytes: bytes)))
        }
        if ends {
            try channel.writeInbound(HTTPClientResponsePart.end(nil))
        } else {
            _ = try? channel.finish()
        }
        _ = try await head.futureResult.get()
        do {
            var pieces: [Data] = []
            for try await piece in stream { pieces.append(piece) }
            return .success(pieces)
        } catch {
            return .failure(error)
        }
    }

    @Test func aBodyUnderTheBoundIsYieldedOnceWhole() async throws {
        let pieces = try await Self.pieces(chunks: 90, chunkSize: 4_096).get()
        #expect(pieces.count == 1)
        #expect(pieces.first == Data((0..<(90 * 4_096)).map { UInt8($0 % 251) }))
    }

    @Test func aLongBodyIsYieldedInPiecesOfAtMostTheBound() async throws {
        let chunkSize = 64 * 1024
        let pieces = try await Self.pieces(chunks: 20, chunkSize: chunkSize).get()
        #expect(pieces.count == 3)   // 512 KiB, 512 KiB, and the last 256 KiB at the end
        #expect(pieces.allSatisfy { $0.count <= ResponseStreamHandler.coalescedBytes })
        #expect(pieces.reduce(Data(), +) == Data((0..<(20 * chunkSize)).map { UInt8($0 % 251) }))
    }

    @Test func aConnectionClosedBeforeTheEndFailsTheBody() async throws {
        let result = try await Self.pieces(chunks: 10, chunkSize: 1_000, ends: false)
        guard case .failure(let error) = result else {
            Issue.record("the body should have failed, got \(result)")
            return
        }
        #expect("\(error)" == SourceFetchError.connectionClosed.description)
    }
}
