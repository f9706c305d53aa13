import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// The result's format, decided once before the transform (which flattens for it), as imgproxy decides it:
    /// the one asked for, else the source's when it is a preferred format, else the first preferred format that
    /// keeps what the result needs: animation (the source has several frames), alpha (the source has it, or
    /// `extend` or `extend_aspect_ratio` may add it, and no `background` flattens it).
    func outputFormat(for image: Image, _ job: ImageJob) -> ImageFormat {
        if let format = job.format { return format }
        let preferred = configuration.preferredFormats.map(\.imageFormat)
        if preferred.contains(image.format), coders.canEncode(to: image.format) { return image.format }
        let animated = image.frames.count > 1
        let expectsAlpha = job.options.background == nil && (image.hasAlpha || job.options.extend || job.options.extendAspectRatio)
        let fitting = preferred.first { format in
            (!animated || ImageJob.animatedFormats.contains(format)) && (!expectsAlpha || ImageJob.alphaFormats.contains(format))
        }
        return fitting ?? preferred.first ?? .jpeg
    }

    /// Step "transform": crop, resize, rotate, blur, sharpen, thumbor's filters (their watermarks fetched first,
    /// ``thumborWatermarks(_:)``), extend, flatten and watermark (``ProcessingTransformer``),
    /// every frame, on the processing threads; the longest side is the URL's `max_result_dimension` when lower than
    /// the configured one; a result over the pixel limit is refused before it is allocated (422). `storedSize`: the
    /// source's size when it was shrunk on load for thumbor's geometry, which plans on it.
    func transform(_ image: Image, _ job: ImageJob, format: ImageFormat, storedSize: PixelSize? = nil) async throws(ServerError) -> Image {
        var configured = ProcessingTransformer(
            options: job.options, maximumPixelCount: configuration.maximumResultPixelCount,
            maximumDimension: configuration.maximumResultDimension.lowered(by: job.options.securityLimits.maximumResultDimension),
            outputFormat: format, watermarkImage: configuration.watermark?.image.pixels, watermarkOpacity: configuration.watermarkOpacity)
        configured.storedSourceSize = storedSize
        configured.thumborWatermarks = try await thumborWatermarks(job)
        let transformer = configured
        let metrics = metrics
        do {
            return try await WorkerThreads.processing.run { () throws -> Image in
                try metrics.time(.process) { try transformer.transform(image) }
            }
        } catch let error as ThumborWatermarkOverlay.Unusable {
            metrics.imgproxy.error(.processing)
            throw ServerError(.internalServerError, error.description)
        } catch let error as ImageProcessingError where error.code == .outputTooLarge {
            metrics.imgproxy.error(.processing)
            throw ServerError(.unprocessableContent, "the result would be larger than the server allows")
        } catch {
            metrics.imgproxy.error(.processing)
            throw ServerError(.unprocessableContent, "the image could not be processed")
        }
    }
}
