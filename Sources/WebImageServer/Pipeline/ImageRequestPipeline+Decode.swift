import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "decode with shrink-on-load": on the processing threads, upright unless `ar:0`, the first frame only
    /// when the result cannot be animated, and at the smallest size the transform still needs
    /// (``ProcessingOptions/shrinkOnLoad``): a JPEG decodes at a DCT scale, a PNG or WebP as it is read; a HEIC's
    /// embedded thumbnail replaces the image with `enforce_thumbnail`. The
    /// header's size is checked against the source pixel limit before any pixel is decoded (422).
    func decode(_ data: Data, _ job: ImageJob) async throws(ServerError) -> Image {
        var options = decoding
        options.applyOrientation = job.options.autoRotate ?? configuration.autoRotate
        options.prefersEmbeddedThumbnail = job.options.enforceThumbnail ?? configuration.enforceThumbnail
        options.firstFrameOnly = !job.keepsAnimation
        if let shrink = job.options.shrinkOnLoad {
            options.thumbnailPixelSize = shrink.size
            options.thumbnailMode = shrink.mode
        }
        let coders = coders, decodingOptions = options, metrics = metrics
        do {
            return try await WorkerThreads.processing.run { () throws -> Image in
                try metrics.time(.decode) { try coders.decode(data, options: decodingOptions) }
            }
        } catch let error as ImageCodingError where error.code == .imageTooLarge || error.code == .animationTooLarge {
            metrics.imgproxy.error(.processing)
            throw ServerError(error, maximumSourcePixelCount: configuration.maximumSourcePixelCount)
        } catch {
            metrics.imgproxy.error(.processing)
            // Bytes that are no image are not kept: the next request fetches the source again.
            try? await sources.cache.remove(forKey: sources.cacheKey(for: job.source), cacheType: .disk)
            throw ServerError(.unprocessableContent, "the source is not an image the server can decode")
        }
    }
}
