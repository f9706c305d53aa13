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
        ServerSetting(name: "key-path", imgproxy: [], apply: { value, draft throws(ServerSettingsError) in
            draft.keys += try Self.lines(ofFile: value)
        }, current: { _ in "(read into key)" }),
        ServerSetting(name: "salt-path", imgproxy: [], apply: { value, draft throws(ServerSettingsError) in
            draft.salts += try Self.lines(ofFile: value)
        }, current: { _ in "(read into salt)" }),
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
        ServerSetting(name: "url-replacements", imgproxy: ["URL_REPLACEMENTS"], apply: { value, draft throws(ServerSettingsError) in
            switch URLReplacement.list(value.text) {
            case .success(let replacements): draft.configuration.urlReplacements = replacements
            case .failure(let error): throw value.invalid("has '\(error.entry)', which is not PATTERN=REPLACEMENT")
            }
        }, current: { $0.configuration.urlReplacements.map { "\($0.pattern)=\($0.replacement)" }.joined(separator: ";") }),
        ServerSetting(name: "set-canonical-header", imgproxy: ["SET_CANONICAL_HEADER"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.setsCanonicalHeader = try value.flag()
        }, current: { "\($0.configuration.setsCanonicalHeader)" }),
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
        ServerSetting(name: "keep-alive-timeout", imgproxy: ["KEEP_ALIVE_TIMEOUT"], apply: { value, draft throws(ServerSettingsError) in
            draft.keepAliveTimeout = try value.seconds()
        }, current: { "\($0.configuration.idleTimeout.seconds) s (idle client connections and stalled requests)" }),
        ServerSetting(name: "read-request-timeout", imgproxy: ["READ_REQUEST_TIMEOUT", "READ_TIMEOUT"], apply: { value, draft throws(ServerSettingsError) in
            draft.readRequestTimeout = try value.seconds()
        }, current: { "\($0.configuration.idleTimeout.seconds) s (with keep-alive-timeout: the shorter)" }),
        ServerSetting(name: "graceful-stop-timeout", imgproxy: ["GRACEFUL_STOP_TIMEOUT"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.gracefulStopTimeout = try value.seconds()
        }, current: { "\(($0.configuration.gracefulStopTimeout ?? $0.configuration.requestTimeout * 2).seconds) s" }),
        ServerSetting(name: "ignore-ssl-verification", imgproxy: ["IGNORE_SSL_VERIFICATION"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.verifiesSourceCertificates = try !value.flag()
        }, current: { "\(!$0.configuration.verifiesSourceCertificates)" }),
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
        ServerSetting(name: "cache-control-passthrough", imgproxy: ["CACHE_CONTROL_PASSTHROUGH"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.passesSourceCacheControl = try value.flag()
        }, current: { "\($0.configuration.passesSourceCacheControl)" }),
        ServerSetting(name: "use-etag", imgproxy: ["USE_ETAG"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.sendsETag = try value.flag()
        }, current: { "\($0.configuration.sendsETag)" }),
        ServerSetting(name: "etag-buster", imgproxy: ["ETAG_BUSTER"], apply: { value, draft in
            draft.configuration.etagBuster = value.text
        }, current: { $0.configuration.etagBuster.isEmpty ? "(none)" : $0.configuration.etagBuster }),
        ServerSetting(name: "max-clients", imgproxy: ["MAX_CLIENTS"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.maximumClients = try value.integer(atLeast: 0)
        }, current: { $0.configuration.maximumClients == 0 ? "(no limit)" : "\($0.configuration.maximumClients)" }),
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
        ServerSetting(name: "disable-shrink-on-load", imgproxy: ["DISABLE_SHRINK_ON_LOAD"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.shrinksOnLoad = try !value.flag()
        }, current: { "\(!$0.configuration.shrinksOnLoad)" }),
        ServerSetting(name: "strict-sources", imgproxy: [], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.strictSources = try value.flag()
        }, current: { "\($0.configuration.strictSources)" }),
        ServerSetting(name: "auto-rotate", imgproxy: ["AUTO_ROTATE"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.autoRotate = try value.flag()
        }, current: { "\($0.configuration.autoRotate)" }),
        ServerSetting(name: "enforce-thumbnail", imgproxy: ["ENFORCE_THUMBNAIL"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.enforceThumbnail = try value.flag()
        }, current: { "\($0.configuration.enforceThumbnail)" }),
        ServerSetting(name: "auto-webp", imgproxy: ["AUTO_WEBP", "ENABLE_WEBP_DETECTION"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.autoWebP = try value.flag()
        }, current: { "\($0.configuration.autoWebP)" }),
        ServerSetting(name: "auto-avif", imgproxy: ["AUTO_AVIF", "ENABLE_AVIF_DETECTION"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.autoAVIF = try value.flag()
        }, current: { "\($0.configuration.autoAVIF)" }),
        ServerSetting(name: "arguments-separator", imgproxy: ["ARGUMENTS_SEPARATOR"], apply: { value, draft throws(ServerSettingsError) in
            guard value.text.count == 1, let separator = value.text.first, separator != "/", !separator.isWhitespace else {
                throw value.invalid("must be one character other than '/'")
            }
            draft.configuration.argumentsSeparator = separator
        }, current: { String($0.configuration.argumentsSeparator) }),
        ServerSetting(name: "presets-separator", imgproxy: ["PRESETS_SEPARATOR"], apply: { value, draft in
            draft.presetsSeparator = value.text
        }, current: { $0.presetsSeparator }),
        ServerSetting(name: "enable-client-hints", imgproxy: ["ENABLE_CLIENT_HINTS"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.usesClientHints = try value.flag()
        }, current: { "\($0.configuration.usesClientHints)" }),
        ServerSetting(name: "auto-jxl", imgproxy: ["AUTO_JXL"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.autoJXL = try value.flag()
        }, current: { "\($0.configuration.autoJXL)" }),
        ServerSetting(name: "enforce-jxl", imgproxy: ["ENFORCE_JXL"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.enforceJXL = try value.flag()
        }, current: { "\($0.configuration.enforceJXL)" }),
        ServerSetting(name: "enforce-webp", imgproxy: ["ENFORCE_WEBP"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.enforceWebP = try value.flag()
        }, current: { "\($0.configuration.enforceWebP)" }),
        ServerSetting(name: "enforce-avif", imgproxy: ["ENFORCE_AVIF"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.enforceAVIF = try value.flag()
        }, current: { "\($0.configuration.enforceAVIF)" }),
        ServerSetting(name: "preferred-formats", imgproxy: ["PREFERRED_FORMATS"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.preferredFormats = try value.list().map { name throws(ServerSettingsError) in
                guard let format = OutputFormat(extension: name.lowercased()) else { throw value.invalid("names '\(name)', not a format the server writes") }
                return format
            }
            guard !draft.configuration.preferredFormats.isEmpty else { throw value.invalid("names no format") }
        }, current: { $0.configuration.preferredFormats.map(\.rawValue).joined(separator: ",") }),
        ServerSetting(name: "preset", imgproxy: ["PRESETS"], apply: { value, draft in
            // Repeated --preset options are joined by commas; the variable's entries by the presets separator.
            let separator = value.origin == .commandLine ? "," : draft.presetsSeparator
            draft.presetDefinitions += value.text.components(separatedBy: separator).map(\.trimmingSpaces).filter { !$0.isEmpty }
        }, current: { "\($0.presetDefinitions.count) preset(s)" }),
        ServerSetting(name: "presets-path", imgproxy: ["PRESETS_PATH"], apply: { value, draft throws(ServerSettingsError) in
            guard let text = try? String(contentsOfFile: value.text, encoding: .utf8) else { throw value.invalid("cannot be read") }
            draft.presetDefinitions += text.split(whereSeparator: \.isNewline).map(String.init)
        }, current: { _ in "(read into preset)" }),
        ServerSetting(name: "base64-url-includes-filename", imgproxy: ["BASE64_URL_INCLUDES_FILENAME"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.base64SourceIncludesFilename = try value.flag()
        }, current: { "\($0.configuration.base64SourceIncludesFilename)" }),
        ServerSetting(name: "allowed-processing-options", imgproxy: ["ALLOWED_PROCESSING_OPTIONS"], apply: { value, draft in
            draft.configuration.allowedProcessingOptions = value.list()
        }, current: { $0.configuration.allowedProcessingOptions.isEmpty ? "(all)" : $0.configuration.allowedProcessingOptions.joined(separator: ",") }),
        ServerSetting(name: "only-presets", imgproxy: ["ONLY_PRESETS"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.onlyPresets = try value.flag()
        }, current: { "\($0.configuration.onlyPresets)" }),
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
        ServerSetting(name: "source-url-query-separator", imgproxy: ["SOURCE_URL_QUERY_SEPARATOR"], apply: { value, draft in
            draft.configuration.sourceQuerySeparator = value.text
        }, current: { $0.configuration.sourceQuerySeparator.isEmpty ? "(none: no query)" : $0.configuration.sourceQuerySeparator }),
        ServerSetting(name: "use-s3", imgproxy: ["USE_S3"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.usesS3 = try value.flag()
        }, current: { "\($0.configuration.usesS3)" }),
        ServerSetting(name: "s3-endpoint", imgproxy: ["S3_ENDPOINT"], apply: { value, draft throws(ServerSettingsError) in
            guard let url = URL(string: value.text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw value.invalid("is not an http or https URL")
            }
            draft.configuration.s3Endpoint = url
        }, current: { $0.configuration.s3Endpoint?.absoluteString ?? "(AWS)" }),
        ServerSetting(name: "s3-endpoint-use-path-style", imgproxy: ["S3_ENDPOINT_USE_PATH_STYLE"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.s3EndpointUsesPathStyle = try value.flag()
        }, current: { "\($0.configuration.s3EndpointUsesPathStyle)" }),
        ServerSetting(name: "s3-region", imgproxy: ["S3_REGION"], apply: { value, draft in
            draft.configuration.s3Region = value.text
        }, current: { $0.configuration.s3Region }),
        ServerSetting(name: "watermark-data", imgproxy: ["WATERMARK_DATA"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.watermark = try Self.image(value) { text throws(ConfiguredImageError) in try .base64(text) }
        }, current: { Self.describe($0.configuration.watermark) }),
        ServerSetting(name: "watermark-path", imgproxy: ["WATERMARK_PATH"], apply: { value, draft throws(ServerSettingsError) in
            guard draft.configuration.watermark == nil else { return }  // the data wins, as in imgproxy
            draft.configuration.watermark = try Self.image(value) { text throws(ConfiguredImageError) in try .file(text) }
        }, current: { _ in "(read into watermark-data)" }),
        ServerSetting(name: "watermark-url", imgproxy: ["WATERMARK_URL"], apply: { value, draft throws(ServerSettingsError) in
            guard draft.configuration.watermark == nil else { return }  // the data, then the path, win
            draft.configuration.watermark = try Self.image(value) { text throws(ConfiguredImageError) in try .fetched(text) }
        }, current: { _ in "(fetched into watermark-data)" }),
        ServerSetting(name: "watermark-opacity", imgproxy: ["WATERMARK_OPACITY"], apply: { value, draft throws(ServerSettingsError) in
            let opacity = try value.number()
            guard opacity <= 1 else { throw value.invalid("must be between 0 and 1") }
            draft.configuration.watermarkOpacity = opacity
        }, current: { "\($0.configuration.watermarkOpacity)" }),
        ServerSetting(name: "fallback-image-data", imgproxy: ["FALLBACK_IMAGE_DATA"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.fallbackImage = try Self.image(value) { text throws(ConfiguredImageError) in try .base64(text) }
        }, current: { Self.describe($0.configuration.fallbackImage) }),
        ServerSetting(name: "fallback-image-path", imgproxy: ["FALLBACK_IMAGE_PATH"], apply: { value, draft throws(ServerSettingsError) in
            guard draft.configuration.fallbackImage == nil else { return }
            draft.configuration.fallbackImage = try Self.image(value) { text throws(ConfiguredImageError) in try .file(text) }
        }, current: { _ in "(read into fallback-image-data)" }),
        ServerSetting(name: "fallback-image-url", imgproxy: ["FALLBACK_IMAGE_URL"], apply: { value, draft throws(ServerSettingsError) in
            guard draft.configuration.fallbackImage == nil else { return }
            draft.configuration.fallbackImage = try Self.image(value) { text throws(ConfiguredImageError) in try .fetched(text) }
        }, current: { _ in "(fetched into fallback-image-data)" }),
        ServerSetting(name: "fallback-image-http-code", imgproxy: ["FALLBACK_IMAGE_HTTP_CODE"], apply: { value, draft throws(ServerSettingsError) in
            // imgproxy's 0: the status the source's error would have had.
            let code = try value.integer(atLeast: 0)
            guard code == 0 || (200...599).contains(code) else { throw value.invalid("is not an HTTP status (200-599, or 0)") }
            draft.configuration.fallbackImageStatus = code == 0 ? nil : code
        }, current: { $0.configuration.fallbackImageStatus.map { "\($0)" } ?? "(the error's status)" }),
        ServerSetting(name: "fallback-image-ttl", imgproxy: ["FALLBACK_IMAGE_TTL"], apply: { value, draft throws(ServerSettingsError) in
            let seconds = try value.integer(atLeast: 0)
            draft.configuration.fallbackImageMaxAge = seconds > 0 ? seconds : nil
        }, current: { $0.configuration.fallbackImageMaxAge.map { "\($0) s" } ?? "(max-age)" }),
        ServerSetting(name: "allow-security-options", imgproxy: ["ALLOW_SECURITY_OPTIONS"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.allowsSecurityOptions = try value.flag()
        }, current: { "\($0.configuration.allowsSecurityOptions)" }),
        ServerSetting(name: "max-animation-frames", imgproxy: ["MAX_ANIMATION_FRAMES"], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.maximumAnimationFrames = try value.integer(atLeast: 1)
        }, current: { $0.configuration.maximumAnimationFrames.map { "\($0)" } ?? "(every frame, within the animation memory budget)" }),
        ServerSetting(name: "max-animation-frame-resolution", imgproxy: ["MAX_ANIMATION_FRAME_RESOLUTION"], apply: { value, draft throws(ServerSettingsError) in
            let megapixels = try value.number()
            guard megapixels <= 10_000 else { throw value.invalid("must be at most 10000 megapixels") }
            draft.configuration.maximumAnimationFramePixelCount = megapixels > 0 ? Int(megapixels * 1_000_000) : nil
        }, current: { $0.configuration.maximumAnimationFramePixelCount.map { "\(Double($0) / 1_000_000) MP" } ?? "(frames together within max-src-resolution)" }),
        ServerSetting(name: "cache-dir", imgproxy: [], apply: { value, draft in
            draft.configuration.cacheDirectory = URL(fileURLWithPath: value.text, isDirectory: true)
        }, current: { $0.configuration.cacheDirectory?.path ?? "(the library's cache folder)" }),
        ServerSetting(name: "cache-min-uses", imgproxy: [], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.cacheMinimumUses = try value.integer(atLeast: 1)
        }, current: { "\($0.configuration.cacheMinimumUses)" }),
        ServerSetting(name: "user-agent", imgproxy: ["USER_AGENT"], apply: { value, draft in
            draft.configuration.userAgent = value.text
        }, current: { $0.configuration.userAgent ?? "(the downloader's)" }),
        ServerSetting(name: "metrics-bind", imgproxy: ["PROMETHEUS_BIND"], apply: { value, draft throws(ServerSettingsError) in
            _ = try ServerAddress(value)
            draft.metricsBind = value.text
        }, current: { $0.metricsBind ?? "(no metrics endpoint)" }),
        ServerSetting(name: "metrics-namespace", imgproxy: ["PROMETHEUS_NAMESPACE"], apply: { value, draft throws(ServerSettingsError) in
            guard value.text.utf8.allSatisfy({ $0 < 0x80 && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber || $0 == UInt8(ascii: "_")) }),
                  value.text.first?.isNumber != true else {
                throw value.invalid("must be letters, digits and '_', not starting with a digit")
            }
            draft.configuration.metricsNamespace = value.text
        }, current: { $0.configuration.metricsNamespace.isEmpty ? "(none)" : $0.configuration.metricsNamespace }),
        ServerSetting(name: "log-level", imgproxy: ["LOG_LEVEL"], apply: { value, draft throws(ServerSettingsError) in
            let level = value.text.lowercased()
            guard ["error", "warn", "warning", "info", "debug"].contains(level) else { throw value.invalid("is not error, warn, info or debug") }
            draft.logLevel = level
        }, current: { $0.logLevel }),
        ServerSetting(name: "log-format", imgproxy: ["LOG_FORMAT"], apply: { value, draft throws(ServerSettingsError) in
            guard let format = ServerLogFormat(rawValue: value.text.lowercased()) else { throw value.invalid("is not pretty, structured, json or gcp") }
            draft.logFormat = format
        }, current: { $0.logFormat.rawValue }),
        ServerSetting(name: "playground", imgproxy: [], apply: { value, draft throws(ServerSettingsError) in
            draft.configuration.playground = try value.flag()
        }, current: { "\($0.configuration.playground)" }),
    ] + encodingTable + thumborTable

    /// Where this server's default is safer than imgproxy's, by setting name: what is kept.
    static let saferDefaults: [(String, String)] = [
        ("bind", "listening on 127.0.0.1:8080 (imgproxy's default is every interface, :8080); set IMGPROXY_BIND=:8080 for that"),
        ("allow-private-sources", "sources on private addresses are refused (imgproxy allows them by default); set IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES=true to allow them"),
        ("max-src-file-size", "sources over 50 MB are refused (imgproxy has no limit by default)"),
        ("max-queue", "at most 100 requests wait for a worker, then 429 (imgproxy's queue is unbounded by default)"),
    ]

    /// The non-blank lines of the file `value` names (imgproxy's `-keypath`/`-saltpath` files: one hex value a line).
    static func lines(ofFile value: SettingValue) throws(ServerSettingsError) -> [String] {
        guard let text = try? String(contentsOfFile: value.text, encoding: .utf8) else { throw value.invalid("cannot be read") }
        return text.split(whereSeparator: \.isNewline).map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }

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

extension ServerSettings {
    /// The configured image `load` makes of the setting's text; an error names the setting and its value.
    static func image(_ value: SettingValue, _ load: (String) throws(ConfiguredImageError) -> ConfiguredImage) throws(ServerSettingsError) -> ConfiguredImage {
        do {
            return try load(value.text.trimmingSpaces)
        } catch {
            let shown = value.text.count > 60 ? String(value.text.prefix(60)) + "…" : value.text
            throw ServerSettingsError("\(value.source) '\(shown)' \(error.description)")
        }
    }

    /// A configured image as `--print-config` shows it.
    static func describe(_ image: ConfiguredImage?) -> String {
        guard let image else { return "(none)" }
        return "\(image.image.pixelSize.width)×\(image.image.pixelSize.height) \(image.image.format.fileExtension)"
    }
}

extension SourceAddressPolicy {
    /// Adds or removes `classes`.
    mutating func set(_ classes: SourceAddressPolicy, _ allowed: Bool) {
        if allowed { formUnion(classes) } else { subtract(classes) }
    }
}
