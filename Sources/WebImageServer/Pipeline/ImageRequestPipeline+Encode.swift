import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "encode": `image` as `format` at ``quality(for:_:)``, on the processing threads; an animation only when
    /// the format keeps one.
    func encode(_ image: Image, as format: ImageFormat, _ job: ImageJob) async throws(ServerError) -> Data {
        let quality = quality(for: format, job), firstFrameOnly = !ImageJob.animatedFormats.contains(format)
        let maximumBytes = Self.lossyFormats.contains(format) ? job.options.maximumBytes : nil
        let coders = coders, metrics = metrics
        do {
            return try await WorkerThreads.processing.run { () throws -> Data in
                try metrics.time(.encode) {
                    try Self.encode(image, as: format, quality: quality, firstFrameOnly: firstFrameOnly, maximumBytes: maximumBytes, coders: coders)
                }
            }
        } catch {
            metrics.imgproxy.error(.processing)
            throw ServerError(.internalServerError, "the image could not be encoded as \(format.displayName)")
        }
    }

    /// The URL's quality, else its `format_quality` for `format`, else the configured one for `format`, else the
    /// configured default (imgproxy's order).
    func quality(for format: ImageFormat, _ job: ImageJob) -> Int {
        job.options.quality ?? job.options.formatQuality.first(where: { $0.key.imageFormat == format })?.value
            ?? configuration.formatQuality[format] ?? configuration.defaultQuality
    }

    /// The formats whose quality `max_bytes` lowers.
    static let lossyFormats: Set<ImageFormat> = [.jpeg, .webp, .avif]

    /// `image` encoded at `quality`, and with `maximumBytes`, again at lower qualities until it fits: each try
    /// multiplies the quality by ¼, ½ or ¾ as the last result was over 3×, 1.5× or less of the limit, down to 10
    /// (at most 9 tries from 100); the last try is served even when still over, as imgproxy does.
    static func encode(
        _ image: Image, as format: ImageFormat, quality: Int, firstFrameOnly: Bool, maximumBytes: Int?, coders: ImageCodersManager
    ) throws -> Data {
        var quality = quality
        while true {
            let data = try coders.encode(image, as: format, options: ImageEncodingOptions(quality: Double(quality) / 100, firstFrameOnly: firstFrameOnly))
            guard let maximumBytes, data.count > maximumBytes, quality > 10 else { return data }
            let over = Double(data.count) / Double(maximumBytes)
            quality = max(10, Int(Double(quality) * (over > 3 ? 0.25 : over > 1.5 ? 0.5 : 0.75)))
        }
    }
}
