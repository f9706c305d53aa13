public import Foundation

extension ImageDownloader {
    /// How an ``ImageDownloader`` downloads; every field has the seeds' default unless noted.
    ///
    /// Give it at creation, or change ``ImageDownloader/configuration`` later: a change applies to the
    /// downloads that start afterwards, except ``eventLoopThreads``, which is read once.
    ///
    /// ```swift
    /// var configuration = ImageDownloader.Configuration()
    /// configuration.maximumConcurrentDownloads = 3
    /// try await withImageDownloader(configuration: configuration) { downloader in
    ///     downloader.configuration.headers["Referer"] = "https://example.com/"   // from the next download on
    ///     _ = try await downloader.data(for: url)
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// The library version sent in the default `User-Agent`.
        static let libraryVersion = "0.1.0"

        /// The `Accept` header: every format the built-in coders decode, then any image at lower preference.
        public static let defaultAccept = "image/avif,image/webp,image/apng,image/png,image/jpeg,image/gif,image/*;q=0.8"

        /// The default `User-Agent`: `WebImageKit/<version> (Linux)`.
        public static let defaultUserAgent = "WebImageKit/\(libraryVersion) (Linux)"

        /// The seeds' timeout, 15 seconds, also used when ``timeout`` is zero or negative.
        public static let defaultTimeout: Duration = .seconds(15)

        /// A user name and password sent as HTTP Basic authorisation to one origin.
        ///
        /// They go only to requests whose scheme, host and port are those of ``origin`` (a redirect to another
        /// origin drops them), and never over plain `http` unless ``allowsInsecureHTTP`` is set.
        ///
        /// ```swift
        /// var configuration = ImageDownloader.Configuration()
        /// configuration.credentials = .init(user: "me", password: "secret", origin: URL(string: "https://images.example.com")!)
        /// ```
        public struct Credentials: Sendable, Hashable {
            /// The user name.
            public var user: String
            /// The password.
            public var password: String
            /// The origin the credentials belong to; only its scheme, host and port count.
            public var origin: URL
            /// Whether the credentials may be sent over plain `http`, where anyone on the path can read
            /// them (default false: an `http` origin gets no credentials).
            public var allowsInsecureHTTP: Bool

            /// Creates credentials for `origin`.
            public init(user: String, password: String, origin: URL, allowsInsecureHTTP: Bool = false) {
                self.user = user
                self.password = password
                self.origin = origin
                self.allowsInsecureHTTP = allowsInsecureHTTP
            }

            /// The `Authorization` header value: `Basic base64(user:password)`.
            var authorizationHeader: String {
                "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
            }

            /// Whether a request to `url` gets these credentials: same scheme, host and port as ``origin``,
            /// and `https` unless ``allowsInsecureHTTP``.
            func apply(to url: URL) -> Bool {
                guard let scheme = url.scheme?.lowercased(), scheme == origin.scheme?.lowercased(),
                      scheme == "https" || (scheme == "http" && allowsInsecureHTTP),
                      let host = url.host?.lowercased(), host == origin.host?.lowercased()
                else { return false }
                return Self.port(of: url) == Self.port(of: origin)
            }

            private static func port(of url: URL) -> Int? {
                url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
            }
        }

        /// The most downloads running at once (default 6; values below 1 count as 1).
        public var maximumConcurrentDownloads: Int = 6
        /// The longest the server may stay silent: while connecting, before the response head and
        /// between body chunks (default 15 s; zero means 15 s).
        public var timeout: Duration = Configuration.defaultTimeout
        /// Which waiting download of one priority starts first (default FIFO).
        public var executionOrder: DownloadExecutionOrder = .fifo
        /// Headers sent with every request (default `Accept` and `User-Agent`, see ``defaultAccept`` and
        /// ``defaultUserAgent``); set a value to an empty string to stop sending it.
        public var headers: [String: String] = ["Accept": Configuration.defaultAccept, "User-Agent": Configuration.defaultUserAgent]
        /// Credentials sent as Basic authorisation to their origin (default none). An explicit `Authorization`
        /// entry in ``headers`` wins.
        public var credentials: Credentials?
        /// The statuses that count as success (default 200..<400). A 3xx that is not
        /// followed still needs an image body. A 304 is special: the answer to a conditional request
        /// (``ImageDownloader/data(for:options:validators:progress:)`` with validators) completes with
        /// ``DownloadedData/isNotModified``; to any other request it is ``ImageDownloadError/Code/badStatus(_:)``.
        public var acceptableStatusCodes: Range<Int> = 200..<400
        /// The MIME types accepted (lower-case, `"image/*"` style wildcards allowed). `nil`, the default,
        /// accepts any `image/*` type and, whatever the declared type, a body whose leading bytes are a
        /// known image format; a set rejects every other declared type as soon as the head arrives.
        public var acceptableContentTypes: Set<String>?
        /// The largest body accepted, in bytes (default 50 MiB). A larger `Content-Length` fails at once;
        /// otherwise the download fails as soon as the bytes received exceed it, so memory stays bounded.
        public var maximumResponseSize: Int = 50 * 1024 * 1024
        /// How many redirects are followed (default 10; 0 disallows them). Loops always fail.
        public var maximumRedirects: Int = 10
        /// Event-loop threads of a group the downloader creates and shuts down itself; `nil`, the
        /// default, uses the process-wide NIO singleton group, which is never shut down. Read only when
        /// the downloader is created.
        public var eventLoopThreads: Int?

        /// Whether and how transient failures are retried (default `nil`: never) (issue item 8).
        public var retryPolicy: RetryPolicy?
        /// The time source of retry back-off (default the real continuous clock; tests replace it).
        package var clock: DownloaderClock = .continuous

        /// Rewrites the headers of each request, given its URL and the headers built so far (configured
        /// headers, credentials, validators, cookies); default none.
        public var headersFilter: (@Sendable (URL, [String: String]) -> [String: String])?
        /// Sees each request after the headers filter and may change it, or return `nil` to cancel the
        /// download with ``ImageDownloadError/Code/cancelled``; runs once per attempt (default none).
        public var requestModifier: (@Sendable (DownloadRequest) async -> DownloadRequest?)?
        /// Sees each response head before it is checked and may change it, or return `nil` to reject it
        /// with ``ImageDownloadError/Code/rejected`` (default none).
        public var responseModifier: (@Sendable (DownloadResponse) async -> DownloadResponse?)?
        /// Turns the received body into image bytes before they are checked and decoded (default none).
        /// With a decryptor, content sniffing waits for the whole body and no partial images are decoded;
        /// a thrown error fails the download with ``ImageDownloadError/Code/decryptionFailed``.
        public var decryptor: (@Sendable (Data, DownloadResponse) throws -> Data)?

        /// What sends requests and streams responses; `nil`, the default, is the downloader's own HTTP/1.1 client
        /// (kept-alive connections, this configuration's timeout and redirect limit).
        public var transport: (any DownloadTransport)?

        /// Whether download events are also posted to `NotificationCenter.default`; default
        /// false: ``ImageDownloader/events()`` is the way to observe them, and posting costs every download.
        public var postsNotifications = false

        /// How long an unused connection is kept for the next request: 60 s. Read when the downloader is created;
        /// not public (tests lengthen it, so that a starved test's pauses do not close its connection).
        var idleConnectionLifetime = Duration.seconds(60)

        /// Creates the default configuration.
        public init() {}

        /// Whether a transfer calls code of the app's besides progress callbacks: hooks, a transport, notification
        /// observers. Such transfers run on the downloader's transfer threads, never on an event loop.
        var runsAppCode: Bool {
            headersFilter != nil || requestModifier != nil || responseModifier != nil || decryptor != nil
                || transport != nil || postsNotifications
        }

        /// ``timeout``, with zero or less replaced by ``defaultTimeout``.
        var effectiveTimeout: Duration {
            timeout > .zero ? timeout : Configuration.defaultTimeout
        }

        /// Whether a response with `mimeType` passes ``acceptableContentTypes`` before its bytes are seen.
        /// With no explicit set, any type passes here; the body is checked once it has arrived.
        func acceptsDeclaredType(_ mimeType: String?) -> Bool {
            guard let acceptableContentTypes else { return true }
            guard let mimeType else { return false }
            return acceptableContentTypes.contains { pattern in
                let pattern = pattern.lowercased()
                if pattern == "*/*" || pattern == mimeType { return true }
                if pattern.hasSuffix("/*") { return mimeType.hasPrefix(pattern.dropLast()) }
                return false
            }
        }
    }
}
