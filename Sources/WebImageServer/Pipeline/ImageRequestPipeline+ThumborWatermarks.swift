import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "watermarks", part of "transform" (thumbor's `watermark` filter): each watermark image the URL names,
    /// fetched through the server's manager as a source is (the source policy, its disk cache, the address checks
    /// at connect time) and decoded as a configured image is (first frame, upright, at most 50 megapixels). With
    /// thumbor's statuses: a watermark that cannot be loaded is 400, one that cannot be decoded 500.
    func thumborWatermarks(_ job: ImageJob) async throws(ServerError) -> [String: PixelBuffer] {
        var images: [String: PixelBuffer] = [:]
        for url in Self.watermarkURLs(job.options) where images[url] == nil {
            let address = try checkedWatermarkURL(url)
            let data: Data
            do {
                data = try await sources.loadData(from: address, options: [.retryFailed]).data
            } catch {
                throw ServerError(.badRequest, "the watermark image could not be loaded")
            }
            let decoded = try? await WorkerThreads.processing.run { () throws(ConfiguredImageError) -> ConfiguredImage in
                try ConfiguredImage(data: data)
            }
            guard let pixels = decoded?.image.frames.first?.pixels else {
                throw ServerError(.internalServerError, "the watermark image could not be decoded")
            }
            images[url] = pixels
        }
        return images
    }

    /// The URL of a watermark image, checked against the source policy as a source is (400 when refused, as
    /// thumbor's loader refuses it), before any I/O.
    func checkedWatermarkURL(_ url: String) throws(ServerError) -> URL {
        guard (try? sourcePolicy.check(url)) != nil else { throw ServerError(.badRequest, "the watermark image's URL is not allowed") }
        guard let address = URL(string: url) else { throw ServerError(.badRequest, "the watermark image's URL is not valid") }
        return address
    }

    /// The watermark URLs of `options`' thumbor filters, each once, in the URL's order.
    static func watermarkURLs(_ options: ProcessingOptions) -> [String] {
        var urls: [String] = []
        for case .watermark(let watermark) in options.pixelFilters where !urls.contains(watermark.url) {
            urls.append(watermark.url)
        }
        return urls
    }
}
