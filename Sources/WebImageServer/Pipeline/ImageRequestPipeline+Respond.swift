import Foundation
import HTTPTypes
import Hummingbird
import WebImageKit

extension ImageRequestPipeline {
    /// Step "respond": 304 when `If-None-Match` names the result's tag (or, without it, `If-Modified-Since` is not
    /// before the source's `Last-Modified`), else 200 with `Content-Type`, `Content-Length`, `Cache-Control`,
    /// `ETag`, `Last-Modified` and `Content-Disposition`. `ETag` and `Last-Modified`, and the conditions on them,
    /// can each be turned off (imgproxy's `USE_ETAG`, `USE_LAST_MODIFIED`).
    func respond(_ processed: ProcessedImage, _ job: ImageJob, conditions: Conditions) -> Response {
        if let status = processed.fallbackStatus {
            return respondWithFallback(processed, job, status: status)
        }
        if isNotModified(processed, conditions) {
            return notModified(etag: processed.etag, job)
        }
        var headers = imageHeaders(processed, job, maxAge: job.maxAge ?? configuration.maxAge)
        if configuration.passesSourceCacheControl, processed.sourceCaching.cacheControl != nil || processed.sourceCaching.expires != nil {
            headers[.cacheControl] = processed.sourceCaching.cacheControl
            headers[.expires] = processed.sourceCaching.expires
        }
        if configuration.sendsETag { headers[.eTag] = processed.etag }
        if configuration.sendsLastModified, let lastModified = processed.lastModified { headers[.lastModified] = lastModified }
        if configuration.setsCanonicalHeader, let scheme = job.source.scheme, scheme == "http" || scheme == "https" {
            headers[Self.link] = "<\(job.source.absoluteString)>; rel=\"canonical\""
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: processed.data)))
    }

    /// The fallback image with its status and the fallback max-age (else the usual one), without validators: it
    /// stands for a source that failed, so no condition is answered with 304 for it.
    private func respondWithFallback(_ processed: ProcessedImage, _ job: ImageJob, status: Int) -> Response {
        let headers = imageHeaders(processed, job, maxAge: configuration.fallbackImageMaxAge ?? configuration.maxAge)
        return Response(status: HTTPResponse.Status(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: processed.data)))
    }

    /// The headers of every image response: its type, length, `Cache-Control` with `maxAge`, disposition and `Vary`.
    private func imageHeaders(_ processed: ProcessedImage, _ job: ImageJob, maxAge: Int) -> HTTPFields {
        var headers: HTTPFields = [
            .contentType: processed.format.mimeType,
            .contentLength: "\(processed.data.count)",
            .cacheControl: "public, max-age=\(maxAge)",
            .contentDisposition: ContentDisposition.value(
                options: job.options, attachment: configuration.returnsAttachment, sourcePath: job.sourcePath, format: processed.format),
        ]
        if !job.vary.isEmpty { headers[.vary] = job.vary.joined(separator: ", ") }
        if !processed.sourceIssues.isEmpty { headers[Self.imageIssues] = Self.headerValue(processed.sourceIssues) }
        return headers
    }

    /// Whether the client's copy is current: by tag when it sends one, else by date (RFC 9110's order).
    private func isNotModified(_ processed: ProcessedImage, _ conditions: Conditions) -> Bool {
        if let ifNoneMatch = conditions.ifNoneMatch {
            return configuration.sendsETag && ETag.matches(ifNoneMatch, processed.etag)
        }
        return configuration.sendsLastModified && conditions.notModifiedSince(processed.lastModified)
    }

    /// `X-Image-Issues`: what was wrong with a damaged source served as far as it decodes.
    static let imageIssues = HTTPField.Name("X-Image-Issues")!

    /// `issues` as one header value: printable ASCII, `; `-separated, at most 512 characters.
    static func headerValue(_ issues: [String]) -> String {
        let text = String(issues.joined(separator: "; ").unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
        return text.count > 512 ? String(text.prefix(509)) + "..." : text
    }

    /// `Link`, for the canonical header.
    private static let link = HTTPField.Name("Link")!

    /// 304 with the tag and the caching headers.
    func notModified(etag: String, _ job: ImageJob) -> Response {
        var headers: HTTPFields = [.cacheControl: "public, max-age=\(job.maxAge ?? configuration.maxAge)"]
        if configuration.sendsETag { headers[.eTag] = etag }
        if !job.vary.isEmpty { headers[.vary] = job.vary.joined(separator: ", ") }
        return Response(status: .notModified, headers: headers)
    }
}
