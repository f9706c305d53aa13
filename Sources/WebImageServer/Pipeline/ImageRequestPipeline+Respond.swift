import Foundation
import HTTPTypes
import Hummingbird
import WebImageKit

extension ImageRequestPipeline {
    /// Step "respond": 304 when `If-None-Match` names the result's tag, else 200 with `Content-Type`,
    /// `Content-Length`, `Cache-Control`, `ETag`, `Last-Modified` and `Content-Disposition`.
    func respond(_ processed: ProcessedImage, _ job: ImageJob, ifNoneMatch: String?) -> Response {
        if let ifNoneMatch, ETag.matches(ifNoneMatch, processed.etag) {
            return notModified(etag: processed.etag, job)
        }
        var headers: HTTPFields = [
            .contentType: processed.format.mimeType,
            .contentLength: "\(processed.data.count)",
            .cacheControl: "public, max-age=\(limits.maxAge)",
            .eTag: processed.etag,
            .contentDisposition: ContentDisposition.value(options: job.options, sourcePath: job.sourcePath, format: processed.format),
        ]
        if let lastModified = processed.lastModified { headers[.lastModified] = lastModified }
        if job.variesByAccept { headers[.vary] = "Accept" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: processed.data)))
    }

    /// 304 with the tag and the caching headers.
    func notModified(etag: String, _ job: ImageJob) -> Response {
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "public, max-age=\(limits.maxAge)"]
        if job.variesByAccept { headers[.vary] = "Accept" }
        return Response(status: .notModified, headers: headers)
    }
}
