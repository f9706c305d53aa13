import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import WebImageKit
import WebImageServer
import WebImageTestSupport

/// A live server over a live ``SourceOrigin``, with a configuration the test adjusts: unsigned, loopback
/// sources allowed, its caches in a temporary folder.
enum ServerTestHarness {
    static func run(
        configure: @Sendable (inout ImageServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (any TestClientProtocol, String, SourceOrigin) async throws -> Void
    ) async throws {
        let origin = try SourceOrigin()
        let directory = try TemporaryDirectory("server")
        defer { directory.remove() }
        var configuration = ImageServerConfiguration(port: 0, sourcePolicy: SourceURLPolicy(addressPolicy: .loopback), cacheDirectory: directory.url)
        // Generous timeouts: under the thread sanitizer, with the whole suite running on two cores, a source fetch or a
        // quiet keep-alive connection can wait seconds. Tests of the timeouts set their own.
        configuration.downloadTimeout = .seconds(60)
        configuration.requestTimeout = .seconds(120)
        configuration.idleTimeout = .seconds(120)
        // Sources and results are cached from their first request, so tests of what the caches do need not ask
        // twice; CacheAdmissionTests pins the default (written on the second request).
        configuration.cacheMinimumUses = 1
        configure(&configuration)
        let app = try buildApplication(configuration: configuration, logger: quietLogger)
        try await origin.run { base in
            try await app.test(.live) { client in try await body(client, base, origin) }
        }
    }

    /// A logger that only reports errors, so test output stays readable.
    static var quietLogger: Logger {
        var logger = Logger(label: "WebImageServerTests")
        logger.logLevel = .error
        return logger
    }
}
