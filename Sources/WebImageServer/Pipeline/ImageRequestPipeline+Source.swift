import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "source": the source's bytes and response headers (validators, caching) through the server's manager: its disk cache (one read of
    /// the entry, revalidated with the origin when older than the source max-age), else the guarded loader, whose
    /// bytes are written to the disk cache once the source has been asked for `cacheMinimumUses` times. A source
    /// over the URL's `max_src_file_size` (lower than the configured limit, which the loader enforces) is 422.
    func loadSource(_ job: ImageJob) async throws(ServerError) -> DownloadedData {
        let started = ContinuousClock.now
        let source: DownloadedData
        let options: ImageLoadOptions = cacheAdmission.admits("source " + job.source.absoluteString) ? [.retryFailed] : [.retryFailed, .cacheMemoryOnly]
        do {
            source = try await sources.loadData(from: job.source, options: options)
            metrics.imgproxy.record(.downloading, .now - started)
            metrics.imgproxy.downloaded(bytes: source.data.count)
        } catch {
            metrics.imgproxy.error(.downloading)
            throw ServerError(error, maximumSourcePixelCount: configuration.maximumSourcePixelCount)
        }
        if let limit = job.options.securityLimits.maximumSourceBytes, limit > 0, source.data.count > limit {
            throw ServerError(.unprocessableContent, "the source image is larger than the URL's max_src_file_size")
        }
        return source
    }

    /// Step "unprocessed?": the source's bytes as they are, when the URL says `raw:1`, or when its format is one to
    /// skip (`skip_processing`, or the configured list) and the result would be in that format anyway. Only for a
    /// raster image format detected in the bytes: anything else (SVG, PDF, not an image) is decoded as usual, so
    /// that no script or markup from a source is served under this server's origin.
    func unprocessed(_ source: DownloadedData, _ job: ImageJob) -> ProcessedImage? {
        let format = ImageFormat(detecting: source.data)
        guard format != .unknown, format != .svg, format != .pdf else { return nil }
        let skipped = job.options.skipProcessing.union(configuration.skipProcessingFormats)
        let skips = skipped.contains(format.fileExtension) && (job.format == nil || job.format == format)
        guard job.options.raw || skips else { return nil }
        return ProcessedImage(data: source.data, format: format, source: source.response, key: job.key)
    }
}
