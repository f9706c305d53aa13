import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "decode with shrink-on-load": on the processing threads, upright unless `ar:0`, the first frame only
    /// when the result cannot be animated (or one frame is the most allowed), and at the smallest size the
    /// transform still needs (``ProcessingOptions/shrinkOnLoad``): a JPEG decodes at a DCT scale, a PNG or WebP as
    /// it is read; a HEIC's embedded thumbnail replaces the image with `enforce_thumbnail`. The header's size is
    /// checked against the source pixel limit before any pixel is decoded, and an animation against the animation
    /// limits (``AnimationLimits``); over a limit, 422. The URL's security options can lower each limit. The
    /// metadata blocks and the colour profile are kept when the result may carry them
    /// (``withResultMetadata(_:source:as:_:)``).
    func decode(_ data: Data, _ job: ImageJob) async throws(ServerError) -> Image {
        let requested = job.options.securityLimits
        let maximumPixelCount = min(configuration.maximumSourcePixelCount, requested.maximumSourcePixelCount.flatMap { $0 > 0 ? $0 : nil } ?? .max)
        let animation = AnimationLimits(
            maximumFrames: configuration.maximumAnimationFrames.lowered(by: requested.maximumAnimationFrames),
            maximumFramePixelCount: configuration.maximumAnimationFramePixelCount.lowered(by: requested.maximumAnimationFramePixelCount),
            maximumPixelCount: maximumPixelCount)
        var options = decoding
        options.maximumPixelCount = min(options.maximumPixelCount, maximumPixelCount)
        options.maximumSourcePixelCount = maximumPixelCount
        options.applyOrientation = job.options.autoRotate ?? configuration.autoRotate
        options.strict = configuration.strictSources
        options.prefersEmbeddedThumbnail = job.options.enforceThumbnail ?? configuration.enforceThumbnail
        options.firstFrameOnly = !job.keepsAnimation || animation.maximumFrames == 1
        options.keepsMetadata = needsSourceMetadata(job)
        options.keepsColorProfile = !stripsColorProfile(job)
        if configuration.shrinksOnLoad, let shrink = job.options.shrinkOnLoad {
            options.thumbnailPixelSize = shrink.size
            options.thumbnailMode = shrink.mode
        } else if let stored = storedSourceSize(data, job), let shrink = job.options.thumborDecodeBox(stored: stored) {
            // thumbor's sizes are planned on the stored size (``storedSourceSize(_:_:)``), so only a JPEG, whose
            // header says it, shrinks.
            options.thumbnailPixelSize = shrink.size
            options.thumbnailMode = shrink.mode
        }
        let coders = coders, decodingOptions = options, metrics = metrics
        do {
            return try await WorkerThreads.processing.run { () throws -> Image in
                try metrics.time(.decode) { try animation.decode(data, options: decodingOptions, coders: coders) }
            }
        } catch let error as AnimationLimits.Exceeded {
            throw ServerError(.unprocessableContent, error.message)
        } catch let error as ImageCodingError where error.code == .imageTooLarge || error.code == .animationTooLarge {
            metrics.imgproxy.error(.processing)
            throw ServerError(error, maximumSourcePixelCount: maximumPixelCount)
        } catch {
            metrics.imgproxy.error(.processing)
            // Bytes that are no image are not kept: the next request fetches the source again.
            try? await sources.cache.remove(forKey: sources.cacheKey(for: job.source), cacheType: .disk)
            throw ServerError(.unprocessableContent, "the source is not an image the server can decode")
        }
    }

    /// The upright size stored in a source decoded for a thumbor URL, when it may have been shrunk on load
    /// (``ProcessingOptions/thumborDecodeBox(stored:)``): what thumbor's sizes are planned on, and what
    /// `MAX_WIDTH`/`MAX_HEIGHT` shrink. nil otherwise (the decoded size is the source's).
    func storedSourceSize(_ data: Data, _ job: ImageJob) -> PixelSize? {
        guard configuration.shrinksOnLoad, job.options.thumborGeometry != nil,
            let stored = ThumborGeometry.storedSize(of: data, appliesOrientation: job.options.autoRotate ?? configuration.autoRotate),
            job.options.thumborDecodeBox(stored: stored) != nil else { return nil }
        return stored
    }
}
