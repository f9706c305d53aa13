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
/// respond.
struct ImageRequestPipeline: Sendable {
    let signature: URLSignatureVerifier
    let parser: ImgproxyURLParser
    let sourcePolicy: SourceURLPolicy
    let negotiation: AcceptNegotiation
    /// Where sources come from: the server's own manager (disk cache, loader, revalidation).
    let sources: ImageManager
    let results: ResultCache
    let shared: SharedTasks<String, ProcessedImage>
    let admission: WorkLimiter
    let decoding: ImageDecodingOptions
    let coders: ImageCodersManager
    let metrics: ServerMetrics
    /// The settings the steps read (limits, qualities, headers).
    let configuration: ImageServerConfiguration

    /// Answers `request` (its raw path, still percent-encoded: what the signature covers).
    func run(_ request: Request) async throws(ServerError) -> Response {
        let path = try unprefixedPath(request)
        try authorize(path, authorization: request.headers[.authorization])
        let job = try parse(path, accept: request.headers[.accept])
        do {
            return try await answer(job, conditions: Conditions(request.headers))
        } catch {
            throw job.variesByAccept ? error.adding(.vary, "Accept") : error
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
                let source = try await loadSource(job)
                if let unprocessed = unprocessed(source, job) {
                    await store(unprocessed, job)
                    return unprocessed
                }
                let decoded = try await decode(source.data, job)
                let format = outputFormat(for: decoded, job)
                let transformed = try await transform(decoded, job, format: format)
                let image = withResultMetadata(transformed, source: decoded, as: format, job)
                let data = try await encode(image, as: format, job)
                let processed = ProcessedImage(data: data, format: format, validators: source.validators, key: job.key)
                await store(processed, job)
                return processed
            }
        }
        return respond(processed, job, conditions: conditions)
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
