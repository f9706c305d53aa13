import Foundation
import WebImageKit

extension ServerSettings {
    /// Every setting, in the order `--print-config` shows them.
    static let table: [ServerSetting] = [
        ServerSetting(name: "bind", imgproxy: ["BIND"], apply: { value, draft throws(ServerSettingsError) in
            let address = try ServerAddress(value)
            (draft.configuration.host, draft.configuration.port) = (address.host, address.port)
        }, current: { "\($0.configuration.host):\($0.configuration.port)" }),
        ServerSetting(name: "key", imgproxy: ["KEY"], apply: { value, draft in draft.keys = value.list() },
                      current: { $0.keys.isEmpty ? "(none: signatures not checked)" : "\($0.keys.count) key(s)" }),
        ServerSetting(name: "salt", imgproxy: ["SALT"], apply: { value, draft in draft.salts = value.list() },
                      current: { "\($0.salts.count) salt(s)" }),
        ServerSetting(name: "signature-size", imgproxy: ["SIGNATURE_SIZE"], apply: { value, draft throws(ServerSettingsError) in
            let size = try value.integer(atLeast: 1)
            guard size <= 32 else { throw value.invalid("must be at most 32 (bytes of HMAC-SHA256)") }
            draft.configuration.signature.signatureSize = size
        }, current: { "\($0.configuration.signature.signatureSize)" }),
        ServerSetting(name: "trusted-signatures", imgproxy: ["TRUSTED_SIGNATURES"], apply: { value, draft in
            draft.configuration.signature.trustedSignatures = Set(value.list())
        }, current: { "\($0.configuration.signature.trustedSignatures.count) signature(s)" }),
        ServerSetting(name: "secret", imgproxy: ["SECRET"], apply: { value, draft in
            draft.configuration.secret = value.text
        }, current: { $0.configuration.secret == nil ? "(none)" : "(set)" }),
        ServerSetting(name: "allow-origin", imgproxy: ["ALLOW_ORIGIN"], apply: { value, draft in
            draft.configuration.allowedOrigin = value.text
        }, current: { $0.configuration.allowedOrigin ?? "(no CORS headers)" }),
        ServerSetting(name: "path-prefix", imgproxy: ["PATH_PREFIX"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.pathPrefix = try PathPrefix.normalized(value)
        }, current: { $0.configuration.pathPrefix.isEmpty ? "(none)" : $0.configuration.pathPrefix }),
        ServerSetting(name: "health-check-path", imgproxy: ["HEALTH_CHECK_PATH"], apply: { value, draft throws(ServerSettingsError) in
            guard value.text.hasPrefix("/"), value.text.count > 1 else { throw value.invalid("must be a path starting with '/'") }
            draft.configuration.healthCheckPath = value.text
        }, current: { "/health" + ($0.configuration.healthCheckPath.map { " and \($0)" } ?? "") }),
        ServerSetting(name: "base-url", imgproxy: ["BASE_URL"], apply: { value, draft in
            draft.configuration.baseURL = value.text
        }, current: { $0.configuration.baseURL ?? "(none)" }),
        ServerSetting(name: "allow-source", imgproxy: ["ALLOWED_SOURCES"], apply: { value, draft in
            draft.allowedSources = value.list()
        }, current: { $0.allowedSources.isEmpty ? "(any public source)" : $0.allowedSources.joined(separator: ",") }),
        ServerSetting(name: "allow-loopback-sources", imgproxy: ["ALLOW_LOOPBACK_SOURCE_ADDRESSES"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.sourcePolicy.addressPolicy.set(.loopback, try value.flag())
        }, current: { "\($0.configuration.sourcePolicy.addressPolicy.contains(.loopback))" }),
        ServerSetting(name: "allow-link-local-sources", imgproxy: ["ALLOW_LINK_LOCAL_SOURCE_ADDRESSES"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.sourcePolicy.addressPolicy.set(.linkLocal, try value.flag())
        }, current: { "\($0.configuration.sourcePolicy.addressPolicy.contains(.linkLocal))" }),
        ServerSetting(name: "allow-private-sources", imgproxy: ["ALLOW_PRIVATE_SOURCE_ADDRESSES"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.sourcePolicy.addressPolicy.set([.privateNetwork, .uniqueLocal], try value.flag())
        }, current: { "\($0.configuration.sourcePolicy.addressPolicy.contains(.privateNetwork))" }),
        ServerSetting(name: "max-src-resolution", imgproxy: ["MAX_SRC_RESOLUTION"], apply: { value, draft throws(ServerSettingsError) in
            let megapixels = try value.number()
            guard megapixels > 0, megapixels <= 10_000 else { throw value.invalid("must be more than 0 and at most 10000 megapixels") }
            draft.configuration.maximumSourcePixelCount = Int(megapixels * 1_000_000)
        }, current: { "\(Double($0.configuration.maximumSourcePixelCount) / 1_000_000) MP" }),
        ServerSetting(name: "max-src-file-size", imgproxy: ["MAX_SRC_FILE_SIZE"], apply: { value, draft throws(ServerSettingsError) in
            // imgproxy's 0 means no limit; a limit stays (the default's), since a source is held in memory.
            let bytes = try value.integer(atLeast: 0)
            if bytes > 0 { draft.configuration.maximumSourceBytes = bytes }
        }, current: { "\($0.configuration.maximumSourceBytes) bytes" }),
        ServerSetting(name: "max-result-dimension", imgproxy: ["MAX_RESULT_DIMENSION"], apply: { value, draft throws(ServerSettingsError) in
            let side = try value.integer(atLeast: 0)
            draft.configuration.maximumResultDimension = side > 0 ? side : nil
        }, current: { $0.configuration.maximumResultDimension.map { "\($0) pixels" } ?? "(no limit but the pixel count)" }),
        ServerSetting(name: "max-redirects", imgproxy: ["MAX_REDIRECTS"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.maximumRedirects = try value.integer(atLeast: 0)
        }, current: { "\($0.configuration.maximumRedirects)" }),
        ServerSetting(name: "timeout", imgproxy: ["TIMEOUT"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.requestTimeout = try value.seconds()
        }, current: { "\($0.configuration.requestTimeout.seconds) s" }),
        ServerSetting(name: "download-timeout", imgproxy: ["DOWNLOAD_TIMEOUT"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.downloadTimeout = try value.seconds()
        }, current: { "\($0.configuration.downloadTimeout.seconds) s" }),
        ServerSetting(name: "workers", imgproxy: ["WORKERS", "CONCURRENCY"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.workers = try value.integer(atLeast: 1)
        }, current: { "\($0.configuration.workers)" }),
        ServerSetting(name: "max-queue", imgproxy: ["REQUESTS_QUEUE_SIZE"], apply: { value, draft throws(ServerSettingsError) in
            // imgproxy's 0 means an unbounded queue; the default bound stays.
            let size = try value.integer(atLeast: 0)
            if size > 0 || value.origin != .imgproxyEnvironment { draft.configuration.maximumQueue = size }
        }, current: { "\($0.configuration.maximumQueue)" }),
        ServerSetting(name: "max-age", imgproxy: ["TTL"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.maxAge = try value.integer(atLeast: 0)
        }, current: { "\($0.configuration.maxAge) s" }),
        ServerSetting(name: "use-etag", imgproxy: ["USE_ETAG"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.sendsETag = try value.flag()
        }, current: { "\($0.configuration.sendsETag)" }),
        ServerSetting(name: "use-last-modified", imgproxy: ["USE_LAST_MODIFIED"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.sendsLastModified = try value.flag()
        }, current: { "\($0.configuration.sendsLastModified)" }),
        ServerSetting(name: "return-attachment", imgproxy: ["RETURN_ATTACHMENT"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.returnsAttachment = try value.flag()
        }, current: { "\($0.configuration.returnsAttachment)" }),
        ServerSetting(name: "quality", imgproxy: ["QUALITY"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.defaultQuality = try Self.quality(value, try value.integer())
        }, current: { "\($0.configuration.defaultQuality)" }),
        ServerSetting(name: "format-quality", imgproxy: ["FORMAT_QUALITY"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.formatQuality = try Self.formatQualities(value)
        }, current: { $0.configuration.formatQuality.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.fileExtension)=\($0.value)" }.joined(separator: ",") }),
        ServerSetting(name: "auto-rotate", imgproxy: ["AUTO_ROTATE"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.autoRotate = try value.flag()
        }, current: { "\($0.configuration.autoRotate)" }),
        ServerSetting(name: "auto-webp", imgproxy: ["AUTO_WEBP", "ENABLE_WEBP_DETECTION"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.autoWebP = try value.flag()
        }, current: { "\($0.configuration.autoWebP)" }),
        ServerSetting(name: "auto-avif", imgproxy: ["AUTO_AVIF", "ENABLE_AVIF_DETECTION"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.autoAVIF = try value.flag()
        }, current: { "\($0.configuration.autoAVIF)" }),
        ServerSetting(name: "preset", imgproxy: ["PRESETS"], apply: { value, draft in
            draft.presetDefinitions += value.list()
        }, current: { "\($0.presetDefinitions.count) preset(s)" }),
        ServerSetting(name: "presets-path", imgproxy: ["PRESETS_PATH"], apply: { value, draft throws(ServerSettingsError) in
            guard let text = try? String(contentsOfFile: value.text, encoding: .utf8) else { throw value.invalid("cannot be read") }
            draft.presetDefinitions += text.split(whereSeparator: \.isNewline).map(String.init)
        }, current: { _ in "(read into preset)" }),
        ServerSetting(name: "skip-processing-formats", imgproxy: ["SKIP_PROCESSING_FORMATS"], apply: { value, draft in
            draft.configuration.skipProcessingFormats = Set(value.list().map { $0.lowercased() == "jpeg" ? "jpg" : $0.lowercased() })
        }, current: { $0.configuration.skipProcessingFormats.sorted().joined(separator: ",") }),
        ServerSetting(name: "local-filesystem-root", imgproxy: ["LOCAL_FILESYSTEM_ROOT"], apply: { value, draft throws(ServerSettingsError) in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: value.text, isDirectory: &isFolder), isFolder.boolValue else {
                throw value.invalid("is not a folder")
            }
            draft.configuration.localFilesystemRoot = URL(fileURLWithPath: value.text, isDirectory: true)
        }, current: { $0.configuration.localFilesystemRoot?.path ?? "(no local:// sources)" }),
        ServerSetting(name: "use-s3", imgproxy: ["USE_S3"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.usesS3 = try value.flag()
        }, current: { "\($0.configuration.usesS3)" }),
        ServerSetting(name: "s3-endpoint", imgproxy: ["S3_ENDPOINT"], apply: { value, draft throws(ServerSettingsError) in
            guard let url = URL(string: value.text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw value.invalid("is not an http or https URL")
            }
            draft.configuration.s3Endpoint = url
        }, current: { $0.configuration.s3Endpoint?.absoluteString ?? "(AWS)" }),
        ServerSetting(name: "s3-region", imgproxy: ["S3_REGION"], apply: { value, draft in
            draft.configuration.s3Region = value.text
        }, current: { $0.configuration.s3Region }),
        ServerSetting(name: "cache-dir", imgproxy: [], apply: { value, draft in
            draft.configuration.cacheDirectory = URL(fileURLWithPath: value.text, isDirectory: true)
        }, current: { $0.configuration.cacheDirectory?.path ?? "(the library's cache folder)" }),
        ServerSetting(name: "user-agent", imgproxy: ["USER_AGENT"], apply: { value, draft in
            draft.configuration.userAgent = value.text
        }, current: { $0.configuration.userAgent ?? "(the downloader's)" }),
        ServerSetting(name: "metrics-bind", imgproxy: ["PROMETHEUS_BIND"], apply: { value, draft throws(ServerSettingsError) in
            _ = try ServerAddress(value)
            draft.metricsBind = value.text
        }, current: { $0.metricsBind ?? "(no metrics endpoint)" }),
        ServerSetting(name: "log-level", imgproxy: ["LOG_LEVEL"], apply: { value, draft throws(ServerSettingsError) in
            let level = value.text.lowercased()
            guard ["error", "warn", "warning", "info", "debug"].contains(level) else { throw value.invalid("is not error, warn, info or debug") }
            draft.logLevel = level
        }, current: { $0.logLevel }),
        ServerSetting(name: "playground", imgproxy: [], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.playground = try value.flag()
        }, current: { "\($0.configuration.playground)" }),
    ] + encodingTable

    /// Where this server's default is safer than imgproxy's, by setting name: what is kept.
    static let saferDefaults: [(String, String)] = [
        ("bind", "listening on 127.0.0.1:8080 (imgproxy's default is every interface, :8080); set IMGPROXY_BIND=:8080 for that"),
        ("allow-private-sources", "sources on private addresses are refused (imgproxy allows them by default); set IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES=true to allow them"),
        ("max-src-file-size", "sources over 50 MB are refused (imgproxy has no limit by default)"),
        ("max-queue", "at most 100 requests wait for a worker, then 429 (imgproxy's queue is unbounded by default)"),
    ]

    /// A quality from 1 to 100.
    static func quality(_ value: SettingValue, _ number: Int) throws(ServerSettingsError) -> Int {
        guard (1...100).contains(number) else { throw value.invalid("must be a quality from 1 to 100") }
        return number
    }

    /// `jpeg=70,avif=40,webp=60`.
    static func formatQualities(_ value: SettingValue) throws(ServerSettingsError) -> [ImageFormat: Int] {
        var qualities: [ImageFormat: Int] = [:]
        for entry in value.list() {
            let halves = entry.split(separator: "=", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
            guard halves.count == 2, let format = OutputFormat(extension: halves[0])?.imageFormat, let number = Int(halves[1]) else {
                throw value.invalid("is not a list of FORMAT=QUALITY")
            }
            qualities[format] = try quality(value, number)
        }
        return qualities
    }
}

extension SourceAddressPolicy {
    /// Adds or removes `classes`.
    mutating func set(_ classes: SourceAddressPolicy, _ allowed: Bool) {
        if allowed { formUnion(classes) } else { subtract(classes) }
    }
}
