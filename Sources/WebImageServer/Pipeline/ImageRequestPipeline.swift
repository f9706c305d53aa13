import CoreMetrics
import Foundation
import Hummingbird
import Logging
import WebImageKit

/// What the server does for one image URL, as a list of named steps read top to bottom (imgproxy's
/// `processing/pipeline.go` is the model). Each step is a function in a file of its own beside this one;
/// each throws a ``ServerError`` that Hummingbird renders.
///
/// authorize → parse (the result key made once, in the ``ImageJob``) → result cache → not modified? → shared
/// work → admission → source → unprocessed? → decode with shrink-on-load → transform → metadata → encode → store →
/// respond; when the source or its decoding fails, the configured fallback image instead (``fallback(for:_:)``).
struct ImageRequestPipeline: Sendable {
    let signature: URLSignatureVerifier
    let parser: ImgproxyURLParser
    let sourcePolicy: SourceURLPolicy
    let negotiation: AcceptNegotiation
    /// Where sources come from: the server's own manager (disk cache, loader, revalidation).
    let sources: ImageManager
    let results: ResultCache
    /// Which sources and results are written to disk: those asked for `cacheMinimumUses` times.
    let cacheAdmission: CacheAdmission
    let shared: SharedTasks<String, ProcessedImage>
    let admission: WorkLimiter
    let decoding: ImageDecodingOptions
    let coders: ImageCodersManager
    let metrics: ServerMetrics
    /// The settings the steps read (limits, qualities, headers).
    let configuration: ImageServerConfiguration
    /// ``ImageServerConfiguration/resultSettings``, made once: every result key includes it.
    let resultSettings: String

    /// Answers `request` through ``run(_:)``, counted in imgproxy's request metrics.
    func serve(_ request: Request) async throws(ServerError) -> Response {
        let started = ContinuousClock.now
        metrics.imgproxy.requestStarted()
        do {
            let response = try await run(request)
            metrics.imgproxy.requestEnded(status: response.status.code, duration: .now - started)
            return response
        } catch {
            metrics.imgproxy.requestEnded(status: error.status.code, duration: .now - started)
            throw error
        }
    }

    /// Answers `request` (its raw path, still percent-encoded: what the signature covers); in the thumbor dialect,
    /// with thumbor's statuses (``thumborError(_:)``).
    func run(_ request: Request) async throws(ServerError) -> Response {
        do {
            return try await runSteps(request)
        } catch {
            throw configuration.dialect == .thumbor ? Self.thumborError(error) : error
        }
    }

    /// The steps, from authorization to the answer.
    private func runSteps(_ request: Request) async throws(ServerError) -> Response {
        let path = try unprefixedPath(request)
        try authorize(path, authorization: request.headers[.authorization])
        let job = try parse(path, headers: request.headers)
        do {
            if let imageURL = job.metadataImageURL { return try await thumborMetadata(job, imageURL: imageURL) }
            return try await answer(job, conditions: Conditions(request.headers))
        } catch {
            throw job.vary.isEmpty ? error : error.adding(.vary, job.vary.joined(separator: ", "))
        }
    }

    /// The steps after parsing: the result for `job`, or why not.
    private func answer(_ job: ImageJob, conditions: Conditions) async throws(ServerError) -> Response {
        if let cached = await cachedResult(job) {
            return respond(cached, job, conditions: conditions)
        }
        if configuration.sendsETag, let ifNoneMatch = conditions.ifNoneMatch, let etag = await knownETag(job), ETag.matches(ifNoneMatch, etag) {
            return notModified(etag: etag, job)
        }
        let processed = try await sharedWork(job) { () throws(ServerError) -> ProcessedImage in
            try await admitted { () throws(ServerError) -> ProcessedImage in
                // From here on the steps run on the processing threads: decoding, transforming and encoding
                // would otherwise each hop there and back, two thread switches apiece.
                try await withTaskExecutorPreference(WorkerThreads.processing) { () async throws(ServerError) -> ProcessedImage in
                    try await process(job)
                }
            }
        }
        return respond(processed, job, conditions: conditions)
    }

    /// Steps "source" to "store": the result for `job` made from its source, or the fallback image's.
    private func process(_ job: ImageJob) async throws(ServerError) -> ProcessedImage {
        let source: DownloadedData
        do throws(ServerError) {
            source = try await loadSource(job)
        } catch {
            return try await fallback(for: error, job)
        }
        if let unprocessed = unprocessed(source, job) {
            await store(unprocessed, job)
            return unprocessed
        }
        let processing = ContinuousClock.now
        let decoded: Image
        do throws(ServerError) {
            decoded = try await decode(source.data, job)
        } catch {
            return try await fallback(for: error, job)
        }
        let (data, format) = try await render(decoded, job, storedSize: storedSourceSize(source.data, job))
        metrics.imgproxy.record(.processing, .now - processing)
        var processed = ProcessedImage(data: data, format: format, source: source.response, key: job.key)
        processed.sourceIssues = decoded.issues.map(\.description)
        if !decoded.issues.isEmpty { metrics.damagedSources.increment() }
        await store(processed, job)
        return processed
    }

    /// Steps "output format", "transform", "metadata" and "encode": `decoded` as the job asks, encoded;
    /// `storedSize` is the source's size when it was shrunk on load for thumbor's geometry.
    func render(_ decoded: Image, _ job: ImageJob, storedSize: PixelSize? = nil) async throws(ServerError) -> (Data, ImageFormat) {
        let format = outputFormat(for: decoded, job)
        let transformed = try await transform(decoded, job, format: format, storedSize: storedSize)
        let image = withResultMetadata(transformed, source: decoded, as: format, job)
        return (try await encode(image, as: format, job), format)
    }

    /// The request target's path without its query, exactly as received, and without the path prefix (404 for a
    /// path outside it).
    func unprefixedPath(_ request: Request) throws(ServerError) -> String {
        let target = request.head.path ?? "/"
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        let prefix = configuration.pathPrefix
        guard !prefix.isEmpty else { return path }
        guard path.hasPrefix(prefix + "/") else { throw ServerError(.notFound, "not found") }
        return String(path.dropFirst(prefix.count))
    }
}
