import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "encode": `image` as `format` with ``encodingOptions(for:_:)``, on the processing threads; an animation
    /// only when the format keeps one. An ICO result over 256×256 is refused (422), as imgproxy refuses it.
    func encode(_ image: Image, as format: ImageFormat, _ job: ImageJob) async throws(ServerError) -> Data {
        if format == .ico, image.pixelSize.width > 256 || image.pixelSize.height > 256 {
            throw ServerError(
                .unprocessableContent,
                "an ico result is at most 256×256 pixels, this one would be \(image.pixelSize.width)×\(image.pixelSize.height); ask for a smaller size")
        }
        let options = encodingOptions(for: format, job)
        let maximumBytes = Self.lossyFormats.contains(format) ? job.options.maximumBytes : nil
        let coders = coders, metrics = metrics
        do {
            return try await WorkerThreads.processing.run { () throws -> Data in
                try metrics.time(.encode) {
                    try Self.encode(image, as: format, options: options, maximumBytes: maximumBytes, coders: coders)
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

    /// The library's options for `format`: ``quality(for:_:)``, the first frame only unless the format keeps an
    /// animation, and the encoder settings (progressive JPEG, interlaced or palette PNG, effort).
    func encodingOptions(for format: ImageFormat, _ job: ImageJob) -> ImageEncodingOptions {
        let settings = configuration.encoding
        return ImageEncodingOptions(
            quality: Double(quality(for: format, job)) / 100,
            firstFrameOnly: !ImageJob.animatedFormats.contains(format),
            progressive: format == .jpeg ? settings.progressiveJPEG : format == .png ? settings.interlacedPNG : false,
            effort: settings.effort(for: format),
            paletteColors: format == .png ? settings.pngPaletteColors : nil)
    }

    /// The formats whose quality `max_bytes` lowers (a TIFF result is JPEG-compressed when it is opaque).
    static let lossyFormats: Set<ImageFormat> = [.jpeg, .webp, .avif, .heic, .tiff]

    /// `image` encoded with `options`, and with `maximumBytes`, again at lower qualities until it fits: each try
    /// multiplies the quality by ¼, ½ or ¾ as the last result was over 3×, 1.5× or less of the limit, down to 10
    /// (at most 9 tries from 100); the last try is served even when still over, as imgproxy does.
    static func encode(
        _ image: Image, as format: ImageFormat, options: ImageEncodingOptions, maximumBytes: Int?, coders: ImageCodersManager
    ) throws -> Data {
        var options = options
        var quality = options.qualityPercent
        while true {
            options.quality = Double(quality) / 100
            let data = try coders.encode(image, as: format, options: options)
            guard let maximumBytes, data.count > maximumBytes, quality > 10 else { return data }
            let over = Double(data.count) / Double(maximumBytes)
            quality = max(10, Int(Double(quality) * (over > 3 ? 0.25 : over > 1.5 ? 0.5 : 0.75)))
        }
    }
}
