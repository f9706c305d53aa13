import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// The result's format, decided once before the transform (which flattens for it), as imgproxy decides it:
    /// the one asked for, else the source's when it can be written, else PNG when the result is expected to have
    /// alpha (the source has it, or `extend` may add it, and no `background` flattens it) and JPEG when not.
    func outputFormat(for image: Image, _ job: ImageJob) -> ImageFormat {
        if let format = job.format { return format }
        if ImageJob.keptFormats.contains(image.format), coders.canEncode(to: image.format) { return image.format }
        let expectsAlpha = job.options.background == nil && (image.hasAlpha || job.options.extend)
        return expectsAlpha ? .png : .jpeg
    }

    /// Step "transform": crop, resize, rotate, blur, sharpen, extend, flatten and watermark (``ProcessingTransformer``),
    /// every frame, on the processing threads; the longest side is the URL's `max_result_dimension` when lower than
    /// the configured one; a result over the pixel limit is refused before it is allocated (422).
    func transform(_ image: Image, _ job: ImageJob, format: ImageFormat) async throws(ServerError) -> Image {
        let transformer = ProcessingTransformer(
            options: job.options, maximumPixelCount: configuration.maximumResultPixelCount,
            maximumDimension: configuration.maximumResultDimension.lowered(by: job.options.securityLimits.maximumResultDimension),
            outputFormat: format, watermarkImage: configuration.watermark?.image.pixels, watermarkOpacity: configuration.watermarkOpacity)
        let metrics = metrics
        do {
            return try await WorkerThreads.processing.run { () throws -> Image in
                try metrics.time(.process) { try transformer.transform(image) }
            }
        } catch let error as ImageProcessingError where error.code == .outputTooLarge {
            throw ServerError(.unprocessableContent, "the result would be larger than the server allows")
        } catch {
            throw ServerError(.unprocessableContent, "the image could not be processed")
        }
    }
}
