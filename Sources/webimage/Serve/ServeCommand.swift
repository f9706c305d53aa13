import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals
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
            separated by commas; flags set by 1, true or yes); the command line wins. SIGTERM or SIGINT stops the \
            server after the requests in flight; /health answers 503 meanwhile.
            """
    )

    @Option(help: "The address to listen on, HOST:PORT (default 127.0.0.1:8080).")
    var bind: String?

    @Option(name: .customLong("key"), help: "A hex key URLs are signed with; repeat with --salt for key rotation.")
    var keys: [String] = []

    @Option(name: .customLong("salt"), help: "The hex salt of the --key at the same position.")
    var salts: [String] = []

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

    @Flag(help: "Serve a page at / to try URLs in a browser.")
    var playground = false

    func run() async throws {
        let environment = ServeEnvironment(ProcessInfo.processInfo.environment)
        let configuration = try serverConfiguration(environment: environment)
        var logger = Logger(label: "webimage.serve")
        logger.logLevel = .info
        let metricsBind = self.metricsBind ?? environment.value("METRICS_BIND")
        if metricsBind != nil { MetricsEndpoint.bootstrap() }
        let app = try buildApplication(configuration: configuration, logger: logger)
        var services: [any Service] = [app]
        if let metricsBind {
            let address = try Self.address(metricsBind, option: "--metrics-bind")
            services.append(MetricsEndpoint.application(host: address.host, port: address.port, logger: logger))
        }
        logger.info("webimage serve listening", metadata: ["address": "\(configuration.host):\(configuration.port)"])
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The server's configuration from the options, then the environment, then the defaults.
    func serverConfiguration(environment: ServeEnvironment) throws -> ImageServerConfiguration {
        var configuration = ImageServerConfiguration()
        let address = try Self.address(bind ?? environment.value("BIND") ?? "127.0.0.1:8080", option: "--bind")
        configuration.host = address.host
        configuration.port = address.port

        let keys = self.keys.isEmpty ? environment.list("KEY") : self.keys
        let salts = self.salts.isEmpty ? environment.list("SALT") : self.salts
        guard keys.count == salts.count else {
            throw ValidationError("give one --salt for every --key (\(keys.count) keys, \(salts.count) salts)")
        }
        configuration.signature = URLSignatureVerifier(keys: try zip(keys, salts).enumerated().map { index, pair in
            do {
                return try SignatureKey(keyHex: pair.0, saltHex: pair.1)
            } catch let error as SignatureKey.InvalidHex {
                throw ValidationError("key \(index + 1): \(error.description)")
            }
        })

        let prefixes = allowedSources.isEmpty ? environment.list("ALLOW_SOURCE") : allowedSources
        var addressPolicy: SourceAddressPolicy = []
        if allowLoopbackSources || environment.flag("ALLOW_LOOPBACK_SOURCES") { addressPolicy.insert(.loopback) }
        if allowPrivateSources || environment.flag("ALLOW_PRIVATE_SOURCES") { addressPolicy.formUnion([.privateNetwork, .uniqueLocal]) }
        configuration.sourcePolicy = SourceURLPolicy(
            allowedPrefixes: try prefixes.map { prefix in
                do {
                    return try SourcePrefix(prefix)
                } catch let error as SourceURLError {
                    throw ValidationError("--allow-source '\(prefix)': \(error.message)")
                }
            },
            addressPolicy: addressPolicy
        )
        if let directory = cacheDir ?? environment.value("CACHE_DIR") {
            configuration.cacheDirectory = URL(fileURLWithPath: directory, isDirectory: true)
        }
        if let workers = try workers ?? environment.integer("WORKERS") {
            guard workers > 0 else { throw ValidationError("--workers must be at least 1") }
            configuration.workers = workers
        }
        if let maxQueue = try maxQueue ?? environment.integer("MAX_QUEUE") {
            guard maxQueue >= 0 else { throw ValidationError("--max-queue must not be negative") }
            configuration.maximumQueue = maxQueue
        }
        if let maxAge = try maxAge ?? environment.integer("MAX_AGE") {
            guard maxAge >= 0 else { throw ValidationError("--max-age must not be negative") }
            configuration.maxAge = maxAge
        }
        configuration.autoWebP = autoWebp || environment.flag("AUTO_WEBP")
        configuration.autoAVIF = autoAvif || environment.flag("AUTO_AVIF")
        do {
            configuration.presets = try ProcessingPresets(parsing: presets.isEmpty ? environment.list("PRESET") : presets)
        } catch {
            throw ValidationError("--preset: \(error.message)")
        }
        configuration.playground = playground || environment.flag("PLAYGROUND")
        return configuration
    }

    /// `HOST:PORT` (`[::1]:8080` for IPv6) taken apart.
    static func address(_ text: String, option: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("\(option) '\(text)' is not HOST:PORT")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("\(option) '\(text)' has no host") }
        return (host, port)
    }
}

/// The `WEBIMAGE_SERVE_*` environment variables, for containers.
struct ServeEnvironment {
    let variables: [String: String]

    init(_ variables: [String: String]) {
        self.variables = variables
    }

    /// The value of `WEBIMAGE_SERVE_<name>`, when set and not empty.
    func value(_ name: String) -> String? {
        guard let value = variables["WEBIMAGE_SERVE_" + name], !value.isEmpty else { return nil }
        return value
    }

    /// A comma-separated list (empty entries dropped).
    func list(_ name: String) -> [String] {
        value(name)?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
    }

    /// Whether a flag is set to 1, true or yes (any case).
    func flag(_ name: String) -> Bool {
        ["1", "true", "yes"].contains(value(name)?.lowercased() ?? "")
    }

    /// A whole number; an error naming the variable when it is not one.
    func integer(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else { throw ValidationError("WEBIMAGE_SERVE_\(name) '\(text)' is not a whole number") }
        return number
    }
}
