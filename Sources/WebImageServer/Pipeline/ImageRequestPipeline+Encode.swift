import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "encode": `image` as `format` at ``quality(for:_:)``, on the processing threads; an animation only when
    /// the format keeps one.
    func encode(_ image: Image, as format: ImageFormat, _ job: ImageJob) async throws(ServerError) -> Data {
        let options = ImageEncodingOptions(
            quality: Double(quality(for: format, job)) / 100, firstFrameOnly: !ImageJob.animatedFormats.contains(format))
        let coders = coders, metrics = metrics
        do {
            return try await WorkerThreads.processing.run { () throws -> Data in
                try metrics.time(.encode) { try coders.encode(image, as: format, options: options) }
            }
        } catch {
            throw ServerError(.internalServerError, "the image could not be encoded as \(format.displayName)")
        }
    }

    /// The URL's quality, else the configured one for `format`, else the configured default.
    func quality(for format: ImageFormat, _ job: ImageJob) -> Int {
        job.options.quality ?? configuration.formatQuality[format] ?? configuration.defaultQuality
    }
}
