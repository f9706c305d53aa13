import Foundation
import Hummingbird
import WebImageKit

/// The fault-injecting routes of ``TestImageServer`` (issue 8 item 3), all under `/fault/`.
extension TestImageServer {
    /// A PNG that claims 60000×60000 pixels: a real 1×1 PNG whose IHDR was rewritten (with a valid CRC).
    static func hugeDimensionsPNG() throws -> Data {
        let png = try ImageCodersManager.shared.encode(
            Image(pixels: PixelBuffer(width: 1, height: 1, fill: .white)), as: .png, options: .init())
        var bytes = [UInt8](png)
        for (index, value) in [UInt32(60000), UInt32(60000)].enumerated() {
            for shift in 0..<4 { bytes[16 + index * 4 + shift] = UInt8(truncatingIfNeeded: value >> (24 - 8 * shift)) }
        }
        let crc = crc32(bytes[12..<29])
        for shift in 0..<4 { bytes[29 + shift] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * shift)) }
        return Data(bytes)
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

/// The CRC-32 PNG chunks use (ISO 3309, reflected, polynomial 0xEDB88320).
private func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
