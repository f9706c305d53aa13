import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WebImageKit
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

    @Test func theEnvironmentConfiguresTheServerAndSIGTERMDrainsTheRequestInFlight() async throws {
        let origin = try TestImageServer()
        let cache = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        let port = try Self.freePort()
        let process = Process()
        process.executableURL = CommandLineToolTests.binary
        process.arguments = ["serve"]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "WEBIMAGE_SERVE_BIND": "127.0.0.1:\(port)",
            "WEBIMAGE_SERVE_ALLOW_LOOPBACK_SOURCES": "1",
            "WEBIMAGE_SERVE_CACHE_DIR": cache.path,
            // The source is held at the origin until the test releases it: under the thread sanitizer and a busy
            // suite that took longer than the 10 s default and the fetch timed out (502), which is not what this
            // test is about.
            "WEBIMAGE_SERVE_DOWNLOAD_TIMEOUT": "300",
            "WEBIMAGE_SERVE_TIMEOUT": "300",
        ]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let server = "http://127.0.0.1:\(port)"

        try await origin.run { base in
            try await Self.waitForHealth(server)
            // A request whose source is held at the origin is in flight when SIGTERM arrives.
            let inFlight = Task {
                try await HTTPClient.shared.execute(HTTPClientRequest(url: "\(server)/_/w:8/plain/\(base)/held/a.png"), timeout: .seconds(60))
            }
            try await Self.eventually { await origin.log.count("/held/a.png") == 1 }
            kill(process.processIdentifier, SIGTERM)
            try await Task.sleep(for: .milliseconds(200))
            #expect(process.isRunning, "the server waits for the request in flight")
            await origin.gates.release("/held/a.png")
            let response = try await inFlight.value
            #expect(response.status.code == 200)
            #expect(response.headers.first(name: "content-type") == "image/png")
            try await Self.eventually { !process.isRunning }
            #expect(process.terminationStatus == 0)
        }
    }

    /// Waits until `/health` answers 200.
    static func waitForHealth(_ server: String) async throws {
        try await eventually {
            let response = try? await HTTPClient.shared.execute(HTTPClientRequest(url: "\(server)/health"), timeout: .seconds(5))
            return response?.status.code == 200
        }
    }

    /// Waits (at most a minute) until `condition` holds.
    static func eventually(_ condition: @Sendable () async -> Bool) async throws {
        // Counted in polls, not wall time, as `eventually` does: a starved thread pool does not use it up.
        var polled = Duration.zero
        while await !condition() {
            guard polled < .seconds(60) else { throw TimedOut() }
            try await Task.sleep(for: .milliseconds(20))
            polled += .milliseconds(20)
        }
    }

    struct TimedOut: Error {}

    /// A port nothing listens on now: bound to 0, read back and released.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TimedOut() }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw TimedOut() }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
