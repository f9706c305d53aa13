import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "decode with shrink-on-load": on the processing threads, upright unless `ar:0`, the first frame only
    /// when the result cannot be animated, and at the smallest size the transform still needs
    /// (``ProcessingOptions/shrinkOnLoad``): a JPEG decodes at a DCT scale, a PNG or WebP as it is read. The
    /// header's size is checked against the source pixel limit before any pixel is decoded (422). The metadata
    /// blocks and the colour profile are kept when the result may carry them (``withResultMetadata(_:source:as:_:)``).
    func decode(_ data: Data, _ job: ImageJob) async throws(ServerError) -> Image {
        var options = decoding
        options.applyOrientation = job.options.autoRotate ?? configuration.autoRotate
        options.firstFrameOnly = !job.keepsAnimation
        options.keepsMetadata = needsSourceMetadata(job)
        options.keepsColorProfile = !stripsColorProfile(job)
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
            throw ServerError(error, maximumSourcePixelCount: configuration.maximumSourcePixelCount)
        } catch {
            // Bytes that are no image are not kept: the next request fetches the source again.
            try? await sources.cache.remove(forKey: sources.cacheKey(for: job.source), cacheType: .disk)
            throw ServerError(.unprocessableContent, "the source is not an image the server can decode")
        }
    }
}
