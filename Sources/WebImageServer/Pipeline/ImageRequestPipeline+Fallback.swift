import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "fallback": when the source cannot be fetched or decoded (any error of the source and decode steps: not
    /// found, refused, too large, not an image), the configured fallback image processed with the request's options,
    /// as imgproxy does; without one, `error`. Errors before the source (a bad URL, a signature, a source the policy
    /// refuses) never reach it. The result is answered with the configured status (200 by default, or the error's)
    /// and is not stored in the result cache, so the source is tried again on the next request.
    func fallback(for error: ServerError, _ job: ImageJob) async throws(ServerError) -> ProcessedImage {
        guard let fallback = configuration.fallbackImage else { throw error }
        let (data, format) = try await render(fallback.image, job)
        return ProcessedImage(data: data, format: format, etag: "", lastModified: nil,
                              fallbackStatus: configuration.fallbackImageStatus ?? Int(error.status.code))
    }
}
