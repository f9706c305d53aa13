import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals
import WebImageCore
import WebImageKit
import WebImageServer

/// `webimage serve`: the image server, with imgproxy's URL format.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve images resized and converted on request, with imgproxy's URLs.",
        discussion: """
            URLs are imgproxy's: /SIGNATURE/OPTIONS/plain/SOURCE_URL@EXTENSION or /SIGNATURE/OPTIONS/BASE64_SOURCE.EXTENSION. \
            Every option can also be set by an environment variable named after it: WEBIMAGE_SERVE_BIND, \
            WEBIMAGE_SERVE_KEY, WEBIMAGE_SERVE_SALT, WEBIMAGE_SERVE_ALLOW_SOURCE, WEBIMAGE_SERVE_CACHE_DIR, … (lists \
            separated by commas; flags set by 1, true or yes), or by imgproxy's IMGPROXY_* variables, so an imgproxy \
            .env works unchanged; the command line wins, then WEBIMAGE_SERVE_*, then IMGPROXY_*. --print-config shows \
            every setting and where it came from. SIGTERM or SIGINT stops the server after the requests in flight; \
            /health answers 503 meanwhile.
            """
    )

    @Option(help: "The address to listen on, HOST:PORT (default 127.0.0.1:8080).")
    var bind: String?

    @Option(name: .customLong("key"), help: "A hex key URLs are signed with; repeat with --salt for key rotation.")
    var keys: [String] = []

    @Option(name: .customLong("salt"), help: "The hex salt of the --key at the same position.")
    var salts: [String] = []

    @Option(name: [.customLong("key-path"), .customLong("keypath", withSingleDash: true)], help: "A file of hex keys, one a line (imgproxy's -keypath).")
    var keyPath: String?

    @Option(name: [.customLong("salt-path"), .customLong("saltpath", withSingleDash: true)], help: "A file of hex salts, one a line (imgproxy's -saltpath).")
    var saltPath: String?

    @Option(name: .customLong("allow-source"), help: "Only fetch sources under this URL prefix (scheme, host, port, then path); repeatable.")
    var allowedSources: [String] = []

    @Flag(help: "Allow sources on loopback addresses (127.0.0.0/8, ::1).")
    var allowLoopbackSources = false

    @Flag(help: "Allow sources on private networks (10/8, 172.16/12, 192.168/16, IPv6 unique-local).")
    var allowPrivateSources = false

    @Option(help: "The folder of the source and result caches (default: the library's cache folder).")
    var cacheDir: String?

    @Option(help: "Serve Prometheus metrics at /metrics on this HOST:PORT (default: no metrics).")
    var metricsBind: String?

    @Option(help: "How many images are fetched and processed at once (default: the number of cores).")
    var workers: Int?

    @Option(help: "How many requests may wait for a worker before the server answers 429 (default 100).")
    var maxQueue: Int?

    @Flag(help: "Answer WebP when the URL names no format and the client accepts it.")
    var autoWebp = false

    @Flag(help: "Answer AVIF when the URL names no format and the client accepts it (preferred to WebP).")
    var autoAvif = false

    @Option(help: "The max-age of Cache-Control on images, in seconds (default 3600).")
    var maxAge: Int?

    @Option(name: .customLong("preset"), help: "A named preset, NAME=OPTIONS (thumb=rs:fill:200:200/q:70); repeatable.")
    var presets: [String] = []

    @Flag(help: "Refuse damaged sources (a JPEG cut short, a PNG with a bad checksum) with 422 instead of serving what decodes.")
    var strictSources = false

    @Flag(help: "Serve a page at / to try URLs in a browser.")
    var playground = false

    @Option(help: "The URL grammar: imgproxy (the default) or thumbor.")
    var dialect: String?

    @Option(help: "thumbor's SECURITY_KEY, which signs thumbor URLs (--dialect thumbor).")
    var thumborKey: String?

    @Flag(help: "Answer thumbor's /unsafe/ URLs (--dialect thumbor; thumbor's ALLOW_UNSAFE_URL).")
    var allowUnsafeUrls = false

    @Option(help: "A thumbor.conf whose NAME = value lines set the settings thumbor names (SECURITY_KEY, QUALITY, MAX_AGE, ...).")
    var thumborConf: String?

    @Flag(help: "Print each setting, its value and where it came from (option, WEBIMAGE_SERVE_*, IMGPROXY_*, default), then exit.")
    var printConfig = false

    func run() async throws {
        let settings = ServerSettings(commandLine: commandLine, environment: ProcessInfo.processInfo.environment)
        let resolved: ServerSettings.Resolved
        do {
            // Resolving fetches a watermark or fallback image given by URL and waits for it (up to 10 s): on
            // WebImageKit's own threads, not on one of Swift's few, which the fetch's own tasks may need.
            if printConfig {
                let report = try await WorkerThreads.transfers.run { () throws(ServerSettingsError) in try settings.report() }
                for line in report { print(line) }
                return
            }
            resolved = try await WorkerThreads.transfers.run { () throws(ServerSettingsError) in try settings.resolve() }
        } catch {
            throw ValidationError(error.description)
        }
        let configuration = resolved.configuration, metricsBind = resolved.metricsBind
        var logger = Logger(label: "webimage.serve") { label in ServerLogHandler(label: label, format: resolved.logFormat) }
        logger.logLevel = resolved.logLevel
        for difference in settings.differences { logger.notice("safer than imgproxy's default: \(difference)") }
        if !resolved.ignoredThumborSettings.isEmpty {
            logger.notice("thumbor.conf settings this server does not use: \(resolved.ignoredThumborSettings.joined(separator: ", "))")
        }
        if metricsBind != nil { MetricsEndpoint.bootstrap(namespace: configuration.metricsNamespace) }
        let app = try buildApplication(configuration: configuration, logger: logger)
        var services: [any Service] = [app]
        if let metricsBind {
            let address = try Self.address(metricsBind, option: "--metrics-bind")
            services.append(MetricsEndpoint.application(host: address.host, port: address.port, logger: logger))
        }
        // Hummingbird logs "Server started and listening on HOST:PORT" once bound, with the port chosen for port 0.
        var groupConfiguration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = configuration.gracefulStopTimeout ?? configuration.requestTimeout * 2
        let group = ServiceGroup(configuration: groupConfiguration)
        try await group.run()
    }

    /// The options given on the command line, by setting name; repeated options joined by commas.
    var commandLine: [String: String] {
        var given: [String: String] = [:]
        given["bind"] = bind
        if !keys.isEmpty { given["key"] = keys.joined(separator: ",") }
        if !salts.isEmpty { given["salt"] = salts.joined(separator: ",") }
        given["key-path"] = keyPath
        given["salt-path"] = saltPath
        if !allowedSources.isEmpty { given["allow-source"] = allowedSources.joined(separator: ",") }
        if allowLoopbackSources { given["allow-loopback-sources"] = "true" }
        if allowPrivateSources { given["allow-private-sources"] = "true" }
        given["cache-dir"] = cacheDir
        given["metrics-bind"] = metricsBind
        given["workers"] = workers.map(String.init)
        given["max-queue"] = maxQueue.map(String.init)
        if autoWebp { given["auto-webp"] = "true" }
        if autoAvif { given["auto-avif"] = "true" }
        given["max-age"] = maxAge.map(String.init)
        if !presets.isEmpty { given["preset"] = presets.joined(separator: ",") }
        if playground { given["playground"] = "true" }
        if strictSources { given["strict-sources"] = "true" }
        given["dialect"] = dialect
        given["thumbor-key"] = thumborKey
        if allowUnsafeUrls { given["allow-unsafe-urls"] = "true" }
        given["thumbor-conf"] = thumborConf
        return given
    }

    /// `HOST:PORT` (`[::1]:8080` for IPv6) taken apart.
    static func address(_ text: String, option: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("\(option) '\(text)' is not HOST:PORT")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty { host = "0.0.0.0" }
        return (host, port)
    }
}
