import Foundation
import Glibc
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WebImageServer

/// imgproxy's connection settings: the idle timeout of client connections, the graceful stop, certificates.
@Suite struct ServerConnectionSettingsTests {
    @Test func theShorterOfTheKeepAliveAndReadTimeoutsClosesIdleConnections() throws {
        let both = try ServerSettings(environment: ["IMGPROXY_KEEP_ALIVE_TIMEOUT": "30", "IMGPROXY_READ_REQUEST_TIMEOUT": "5"]).configuration()
        #expect(both.idleTimeout == .seconds(5))
        let keepAlive = try ServerSettings(environment: ["IMGPROXY_KEEP_ALIVE_TIMEOUT": "60"]).configuration()
        #expect(keepAlive.idleTimeout == .seconds(10))
        #expect(try ServerSettings(environment: ["IMGPROXY_KEEP_ALIVE_TIMEOUT": "2"]).configuration().idleTimeout == .seconds(2))
        #expect(try ServerSettings().configuration().idleTimeout == .seconds(10))
    }

    @Test func gracefulStopAndCertificateSettingsAreRead() throws {
        let configuration = try ServerSettings(environment: ["IMGPROXY_GRACEFUL_STOP_TIMEOUT": "7", "IMGPROXY_IGNORE_SSL_VERIFICATION": "true"]).configuration()
        #expect(configuration.gracefulStopTimeout == .seconds(7))
        #expect(!configuration.verifiesSourceCertificates)
        #expect(try ServerSettings().configuration().verifiesSourceCertificates)
    }

    @Test func aConnectionThatSendsNothingIsClosedAfterTheIdleTimeout() async throws {
        try await ServerTestHarness.run(configure: { $0.idleTimeout = .seconds(1) }) { client, _, _ in
            let port = try #require(client.port)
            let started = ContinuousClock.now
            let closed = try await Task.detached { try Self.waitForClose(port: port, limitSeconds: 8) }.value
            #expect(closed, "the server kept the idle connection open for 8 s")
            #expect(ContinuousClock.now - started < .seconds(8))
        }
    }

    @Test func connectionsPastTheClientLimitAreClosedAtOnce() async throws {
        try await ServerTestHarness.run(configure: { $0.maximumClients = 2 }) { client, _, _ in
            let port = try #require(client.port)
            // The test client's connection, then one more, each known to be admitted once answered; the next is over
            // the limit.
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
            let held = try Self.connect(port: port)
            defer { close(held) }
            let answered = try await Task.detached { try Self.askHealth(held) }.value
            #expect(answered.hasPrefix("HTTP/1.1 200"), "the first connection was not served: '\(answered)'")
            let closed = try await Task.detached { try Self.waitForClose(port: port, limitSeconds: 5) }.value
            #expect(closed, "a connection past the limit stayed open")
        }
        let count = ConnectionCount(limit: 2)
        #expect(count.admit() && count.admit() && !count.admit())
        count.release()
        #expect(count.admit() && count.current == 2)
        #expect(try ServerSettings(environment: ["IMGPROXY_MAX_CLIENTS": "0"]).configuration().maximumClients == 0)
    }

    @Test func theETagBusterAndSettingsThatChangeResultsChangeEveryKey() throws {
        let source = try #require(URL(string: "https://example.com/a.jpg"))
        let plain = ImageJob(options: ProcessingOptions(), source: source, sourcePath: "/a.jpg", vary: [])
        var configuration = ImageServerConfiguration()
        let before = ImageJob(options: ProcessingOptions(), source: source, sourcePath: "/a.jpg", vary: [], settings: configuration.resultSettings)
        let again = ImageJob(options: ProcessingOptions(), source: source, sourcePath: "/a.jpg", vary: [], settings: configuration.resultSettings)
        configuration.etagBuster = "v2"
        let busted = ImageJob(options: ProcessingOptions(), source: source, sourcePath: "/a.jpg", vary: [], settings: configuration.resultSettings)
        #expect(before.key == again.key && before.key != busted.key && plain.key != before.key)
        #expect(try ServerSettings(environment: ["IMGPROXY_ETAG_BUSTER": "v2"]).configuration().etagBuster == "v2")
        for change in [{ (c: inout ImageServerConfiguration) in c.autoRotate = false }, { $0.encoding.stripsMetadata = false },
                       { $0.defaultQuality = 50 }, { $0.enforceThumbnail = true }] {
            var changed = ImageServerConfiguration()
            change(&changed)
            #expect(changed.resultSettings != ImageServerConfiguration().resultSettings)
        }
    }

    /// A connection to 127.0.0.1:`port` that sends nothing; its descriptor.
    static func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        return descriptor
    }

    /// Sends `GET /health` on `descriptor` (keeping the connection) and returns the start of the answer.
    static func askHealth(_ descriptor: Int32) throws -> String {
        // Long enough for a starved sanitizer run; a closed connection answers at once.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { return "no answer within 60 s (errno \(errno))" }
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : "closed without an answer"
    }

    /// Connects to 127.0.0.1:`port`, sends nothing, and waits up to `limitSeconds` for the server to close.
    static func waitForClose(port: Int, limitSeconds: Int) throws -> Bool {
        let descriptor = try connect(port: port)
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: limitSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        // 0: the server closed the connection; -1 with EAGAIN: the wait ran out first.
        return recv(descriptor, &byte, 1, 0) == 0
    }
}

/// `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`: a source's `Cache-Control` and `Expires` on its results, also when they
/// come from the result cache or the source cache.
@Suite struct CacheControlPassthroughTests {
    @Test func theSourcesCachingHeadersReplaceTheServersWhenPassedThrough() async throws {
        try await ServerTestHarness.run(configure: { $0.passesSourceCacheControl = true }) { client, base, _ in
            for uri in ["/_/w:20/plain/\(base)/cached.jpg", "/_/w:20/plain/\(base)/cached.jpg", "/_/w:21/plain/\(base)/cached.jpg"] {
                // Processed, then from the result cache, then from the source cache.
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.cacheControl] == "public, max-age=123", "\(uri)")
                    #expect(response.headers[.expires] == "Wed, 25 Nov 2026 10:00:00 GMT", "\(uri)")
                }
            }
            // A source without them keeps the server's.
            try await client.execute(uri: "/_/w:20/plain/\(base)/photo.jpg", method: .get) { response in
                #expect(response.headers[.cacheControl] == "public, max-age=3600")
                #expect(response.headers[.expires] == nil)
            }
        }
        try await ServerTestHarness.run { client, base, _ in
            try await client.execute(uri: "/_/w:20/plain/\(base)/cached.jpg", method: .get) { response in
                #expect(response.headers[.cacheControl] == "public, max-age=3600")
            }
        }
    }
}
