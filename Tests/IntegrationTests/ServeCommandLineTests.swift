import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WebImageKit
import WebImageTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `webimage serve` as an operator runs it: options and their environment variables, and a graceful stop.
@Suite struct ServeCommandLineTests {
    @Test func badOptionsStopTheServerAtStartWithAUsageError() async throws {
        let badBind = try await CommandLineToolTests.run(["serve", "--bind", "localhost"])
        #expect(badBind.status == 64)
        #expect(badBind.stderr.contains("--bind 'localhost' is not HOST:PORT"))
        let keyWithoutSalt = try await CommandLineToolTests.run(["serve", "--key", "6b6579"])
        #expect(keyWithoutSalt.status == 64)
        #expect(keyWithoutSalt.stderr.contains("give one salt for every key"))
        let badPreset = try await CommandLineToolTests.run(["serve", "--preset", "thumb=nonsense:1"])
        #expect(badPreset.status == 64)
        #expect(badPreset.stderr.contains("in preset 'thumb'"))
    }

    /// The watermark is given by URL: the server fetches it at start, before it listens (a wait that on one of NIO's
    /// event loops would stop the process).
    @Test func theEnvironmentConfiguresTheServerFetchingAWatermarkURLAndSIGTERMDrainsTheRequestInFlight() async throws {
        let origin = try TestImageServer()
        let cache = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        // Port 0, read back from the server's log: a port picked beforehand could be taken by another test's server.
        let log = cache.appendingPathComponent("serve.log")
        try Data().write(to: log)
        let process = Process()
        defer { if process.isRunning { process.terminate() } }

        try await origin.run { base in
            process.executableURL = CommandLineToolTests.binary
            process.arguments = ["serve"]
            process.environment = ProcessInfo.processInfo.environment.merging([
                "WEBIMAGE_SERVE_BIND": "127.0.0.1:0",
                "WEBIMAGE_SERVE_ALLOW_LOOPBACK_SOURCES": "1",
                "WEBIMAGE_SERVE_CACHE_DIR": cache.path,
                "IMGPROXY_WATERMARK_URL": "\(base)/image/mark.png",
                // The source is held at the origin until the test releases it: under the thread sanitizer and a busy
                // suite that took longer than the 10 s default and the fetch timed out (502), which is not what this
                // test is about.
                "WEBIMAGE_SERVE_DOWNLOAD_TIMEOUT": "300",
                "WEBIMAGE_SERVE_TIMEOUT": "300",
            ]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            let port = try await listeningPort(in: log, after: "listening on 127.0.0.1:")
            let server = "http://127.0.0.1:\(port)"
            #expect(await origin.log.count("/image/mark.png") == 1, "the watermark is fetched once, at start")

            try await Self.waitForHealth(server)
            // A request whose source is held at the origin is in flight when SIGTERM arrives.
            let inFlight = Task {
                try await HTTPClient.shared.execute(HTTPClientRequest(url: "\(server)/_/w:8/wm:1/plain/\(base)/held/a.png"), timeout: .seconds(60))
            }
            try await eventually(timeout: .seconds(60)) { await origin.log.count("/held/a.png") == 1 }
            kill(process.processIdentifier, SIGTERM)
            try await Task.sleep(for: .milliseconds(200))
            #expect(process.isRunning, "the server waits for the request in flight")
            await origin.gates.release("/held/a.png")
            let response = try await inFlight.value
            #expect(response.status.code == 200)
            #expect(response.headers.first(name: "content-type") == "image/png")
            try await eventually(timeout: .seconds(60)) { !process.isRunning }
            #expect(process.terminationStatus == 0)
        }
    }

    /// Waits until `/health` answers 200.
    static func waitForHealth(_ server: String) async throws {
        try await eventually(timeout: .seconds(60)) {
            let response = try? await HTTPClient.shared.execute(HTTPClientRequest(url: "\(server)/health"), timeout: .seconds(5))
            return response?.status.code == 200
        }
    }
}
