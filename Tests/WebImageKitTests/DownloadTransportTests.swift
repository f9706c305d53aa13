import Foundation
import Testing
@testable import WebImageKit
import WebImageTestSupport

/// A transport serving bytes from memory in chunks, recording every request it is sent; a request for a URL
/// that `holds` waits until the test releases it, so that several callers can attach to one transfer.
private final class MemoryTransport: DownloadTransport {
    struct Reply: Sendable {
        var status = 200
        var headers = ["Content-Type": "image/png"]
        var chunks: [Data]
    }

    let replies: [URL: Reply]
    let requests = LockedValue<[DownloadRequest]>([])
    let gate = LockedValue<[CheckedContinuation<Void, Never>]>([])
    let holds: Bool

    init(replies: [URL: Reply], holds: Bool = false) {
        self.replies = replies
        self.holds = holds
    }

    /// Lets every request held so far go on.
    func release() {
        for continuation in gate.withLock({ gate in defer { gate = [] }; return gate }) { continuation.resume() }
    }

    func send(_ request: DownloadRequest, timeout: Duration) async throws -> (DownloadResponse, AsyncThrowingStream<Data, any Error>) {
        requests.withLock { $0.append(request) }
        if holds {
            await withCheckedContinuation { continuation in gate.withLock { $0.append(continuation) } }
        }
        guard let reply = replies[request.url] else { throw URLError(.cannotConnectToHost) }
        let head = DownloadResponse(url: request.url, statusCode: reply.status, headers: reply.headers)
        return (head, AsyncThrowingStream { continuation in
            for chunk in reply.chunks { continuation.yield(chunk) }
            continuation.finish()
        })
    }
}

/// SPEC DL-27, OP-01: a custom transport plugs into the downloader, which keeps its sharing, checks and progress.
@Suite struct DownloadTransportTests {
    private let url = URL(string: "https://images.example/a.png")!

    private func png() throws -> Data {
        try ImageCodersManager.shared.encode(
            Image(pixels: PixelBuffer(width: 40, height: 30, fill: .white)), as: .png, options: ImageEncodingOptions())
    }

    private func downloader(_ transport: MemoryTransport) -> ImageDownloader {
        var configuration = ImageDownloader.Configuration()
        configuration.transport = transport
        configuration.headers["X-Test"] = "1"
        return ImageDownloader(configuration: configuration)
    }

    @Test func dl27ACustomTransportCarriesTheBytesWithTheDownloadersHeadersAndProgress() async throws {
        let bytes = try png()
        let chunks = stride(from: 0, to: bytes.count, by: 50).map { bytes[$0..<min($0 + 50, bytes.count)] }.map { Data($0) }
        let transport = MemoryTransport(replies: [url: .init(chunks: chunks)])
        let downloader = downloader(transport)
        let progress = LockedValue<[Int]>([])
        let result = try await downloader.image(for: url) { value in progress.withLock { $0.append(value.receivedBytes) } }
        try await downloader.shutdown()
        #expect(result.data == bytes)
        #expect(result.image.pixelSize == PixelSize(width: 40, height: 30))
        #expect(transport.requests.withLock { $0.first?.headers["X-Test"] } == "1")
        #expect(progress.withLock { $0 }.last == bytes.count)
        #expect(progress.withLock { $0.count } >= chunks.count)
    }

    @Test func dl27AProgressiveCallerGetsTheBytesSoFarFromATransport() async throws {
        let bytes = try png()
        let chunks = [bytes.prefix(60), bytes.dropFirst(60)].map { Data($0) }
        let downloader = downloader(MemoryTransport(replies: [url: .init(chunks: chunks)]))
        let partials = LockedValue<[Data]>([])
        _ = try await downloader.data(for: url, options: [.progressiveLoad]) { value in
            if let data = value.data { partials.withLock { $0.append(data) } }
        }
        try await downloader.shutdown()
        #expect(partials.withLock { $0 } == [chunks[0], bytes])
    }

    @Test func dl27CallersOfOneURLShareOneTransfer() async throws {
        let transport = MemoryTransport(replies: [url: .init(chunks: [try png()])], holds: true)
        let downloader = downloader(transport)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<5 {
                group.addTask { try await downloader.data(for: url).data.count }
            }
            // Every caller attached to the one transfer the transport holds.
            try await eventually(timeout: .seconds(60)) {
                transport.requests.withLock { $0.count } == 1
                    && downloader.state.withLock { $0.operations.values.first?.subscribers.count } == 5
            }
            transport.release()
            var sizes: [Int] = []
            for try await size in group { sizes.append(size) }
            #expect(sizes.count == 5 && Set(sizes).count == 1)
        }
        try await downloader.shutdown()
        #expect(transport.requests.withLock { $0.count } == 1)
    }

    @Test func dl27TheDownloadersChecksApplyToATransportsResponse() async throws {
        let missing = URL(string: "https://images.example/missing.png")!
        let page = URL(string: "https://images.example/page.html")!
        let transport = MemoryTransport(replies: [
            missing: .init(status: 404, chunks: [Data("not found".utf8)]),
            page: .init(headers: ["Content-Type": "text/html"], chunks: [Data("<html>".utf8)]),
        ])
        let downloader = downloader(transport)
        await #expect { try await downloader.data(for: missing) } throws: {
            ($0 as? ImageDownloadError)?.code == .badStatus(404)
        }
        await #expect { try await downloader.data(for: page) } throws: {
            ($0 as? ImageDownloadError)?.code == .badContentType
        }
        await #expect { try await downloader.data(for: URL(string: "https://images.example/unknown.png")!) } throws: {
            let error = $0 as? ImageDownloadError
            return error?.code == .network && error?.message.hasPrefix("the transport failed") == true
        }
        try await downloader.shutdown()
    }
}

/// SPEC DL-44: a shutdown that lets the downloads already asked for finish, or cancels them.
@Suite struct DownloaderShutdownTests {
    private func png() throws -> Data {
        try ImageCodersManager.shared.encode(
            Image(pixels: PixelBuffer(width: 4, height: 4, fill: .white)), as: .png, options: ImageEncodingOptions())
    }

    @Test func dl44AFinishingShutdownDeliversRunningAndWaitingDownloadsAndRefusesNewOnes() async throws {
        let urls = (0..<3).map { URL(string: "https://images.example/\($0).png")! }
        let bytes = try png()
        let transport = MemoryTransport(replies: Dictionary(uniqueKeysWithValues: urls.map { ($0, .init(chunks: [bytes])) }), holds: true)
        var configuration = ImageDownloader.Configuration()
        configuration.transport = transport
        configuration.maximumConcurrentDownloads = 1
        let downloader = ImageDownloader(configuration: configuration)
        let first = Task { try await downloader.data(for: urls[0]).data }
        try await eventually(timeout: .seconds(60)) { transport.requests.withLock { $0.count } == 1 }
        let second = Task { try await downloader.data(for: urls[1]).data }  // waits behind the first
        try await eventually(timeout: .seconds(60)) { downloader.currentDownloadCount == 2 }
        let shutdown = Task { try await downloader.shutdown(finishingDownloads: true) }
        // New requests are refused once the shutdown has begun.
        try await eventually(timeout: .seconds(60)) { downloader.state.withLock { $0.isShutDown } }
        await #expect { try await downloader.data(for: urls[2]) } throws: { ($0 as? ImageDownloadError)?.code == .cancelled }
        transport.release()
        try await eventually(timeout: .seconds(60)) { transport.requests.withLock { $0.count } == 2 }
        transport.release()
        #expect(try await first.value == bytes)
        #expect(try await second.value == bytes)
        try await shutdown.value
        #expect(transport.requests.withLock { $0.map(\.url) } == [urls[0], urls[1]])
    }

    @Test func dl44TheDefaultShutdownCancelsRunningDownloads() async throws {
        let url = URL(string: "https://images.example/held.png")!
        let transport = MemoryTransport(replies: [url: .init(chunks: [try png()])], holds: true)
        var configuration = ImageDownloader.Configuration()
        configuration.transport = transport
        let downloader = ImageDownloader(configuration: configuration)
        let running = Task { try await downloader.data(for: url) }
        try await eventually(timeout: .seconds(60)) { transport.requests.withLock { $0.count } == 1 }
        let shutdown = Task { try await downloader.shutdown() }
        await #expect { try await running.value } throws: { ($0 as? ImageDownloadError)?.code == .cancelled }
        transport.release()
        try await shutdown.value
    }
}
