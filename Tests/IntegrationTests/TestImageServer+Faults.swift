import Foundation
import Hummingbird
import WebImageKit
import WebImageTestSupport

/// The fault-injecting routes of ``TestImageServer`` (issue 8 item 3), all under `/fault/`.
extension TestImageServer {
    /// A PNG that claims 60000×60000 pixels: a real 1×1 PNG whose IHDR was rewritten (with a valid CRC).
    static func hugeDimensionsPNG() throws -> Data {
        try pngClaiming(width: 60000, height: 60000)
    }

    /// 20 MB of zeros, gzip-compressed (about 20 KB), by the system's `gzip`.
    static func gzipBomb() throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-9"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            let zeros = Data(count: 1 << 20)
            for _ in 0..<20 { input.fileHandleForWriting.write(zeros) }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// The two expensive payloads, made once per test process (empty if they could not be made; the fault
    /// tests check that they are not).
    static let faultPayloads: (huge: Data, bomb: Data) = ((try? hugeDimensionsPNG()) ?? Data(), (try? gzipBomb()) ?? Data())

    func addFaultRoutes(to router: Router<BasicRequestContext>) {
        let png = self.png
        let largePNG = self.largePNG
        let gates = self.gates
        let (huge, bomb) = Self.faultPayloads
        // Headers and a few bytes, then nothing until the server stops.
        router.get("fault/stall") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png", .contentLength: "\(png.count)"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: png.prefix(8)))
                await gates.wait("/fault/stall/never")
                try await writer.finish(nil)
            })
        }
        // A whole valid PNG, slowly: 64 pieces, 10 ms apart.
        router.get("fault/drip-image") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png", .contentLength: "\(largePNG.count)"], body: ResponseBody { writer in
                let size = max(1, largePNG.count / 64)
                for start in stride(from: 0, to: largePNG.count, by: size) {
                    try await writer.write(ByteBuffer(bytes: largePNG[start..<min(start + size, largePNG.count)]))
                    try await Task.sleep(for: .milliseconds(10))  // pacing, not synchronisation
                }
                try await writer.finish(nil)
            })
        }
        // A body longer than its Content-Length.
        router.get("fault/overlong") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png", .contentLength: "\(png.count)"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: png + Data(repeating: 0xAB, count: 4096)))
                try await writer.finish(nil)
            })
        }
        router.get("fault/gzip-bomb") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png", .contentEncoding: "gzip", .contentLength: "\(bomb.count)"],
                     body: .init(byteBuffer: ByteBuffer(bytes: bomb)))
        }
        // A PNG signature and header, then noise.
        router.get("fault/garbage") { _, _ in
            var generator = SystemRandomNumberGenerator()
            let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
            return Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: png.prefix(33) + noise)))
        }
        router.get("fault/huge-dimensions") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: huge)))
        }
        router.get("fault/too-many-requests") { _, _ in
            Response(status: .tooManyRequests, headers: [.retryAfter: "1"])
        }
    }
}
