import Foundation
import Hummingbird
import Logging
import WebImageKit
import WebImageTools

/// The demo's embedded origin server on 127.0.0.1 (a free port): serves ``DemoImages``, answers 404 for
/// `/missing.png`, and sends `/slow.jpg` in small pieces over about two seconds.
struct DemoOrigin {
    let files: [DemoImages.File]
    let slowFile: DemoImages.File

    /// Runs `body` with the server listening; `body` gets the base URL. The server stops afterwards.
    func run<T: Sendable>(_ body: @Sendable (URL) async throws -> T) async throws -> T {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "webimage.demo.origin")
        logger.logLevel = .critical
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0, let base = URL(string: "http://127.0.0.1:\(port)") else {
            throw ValidationErrorText("the demo origin did not start")
        }
        let result = try await body(base)
        server.cancel()
        _ = try? await server.value
        return result
    }

    private func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        for file in files {
            let data = file.data
            let contentType = file.contentType
            router.get(RouterPath(stringLiteral: String(file.path.dropFirst()))) { _, _ in
                Response(
                    status: .ok, headers: [.contentType: contentType, .contentLength: "\(data.count)", .eTag: "\"demo\""],
                    body: .init(byteBuffer: ByteBuffer(bytes: data)))
            }
        }
        let slow = slowFile.data
        router.get("slow.jpg") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "image/jpeg", .contentLength: "\(slow.count)"],
                body: ResponseBody { writer in
                    let pieces = 20
                    let size = (slow.count + pieces - 1) / pieces
                    for start in stride(from: 0, to: slow.count, by: size) {
                        try await writer.write(ByteBuffer(bytes: slow[start..<min(start + size, slow.count)]))
                        try await Task.sleep(for: .milliseconds(100))  // a slow origin, on purpose
                    }
                    try await writer.finish(nil)
                })
        }
        return router
    }
}

/// An error that is just a sentence.
struct ValidationErrorText: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
