import Foundation
import Logging
import WebImageCore
import WebImageKit

/// A processed image, ready to send.
struct ProcessedImage: Sendable {
    /// The encoded bytes.
    let data: Data
    /// Their format.
    let format: ImageFormat
}

/// Fetches, decodes, resizes and encodes: the server's own ``ImageManager`` (a memory and disk cache of
/// sources in the configured folder, the default loader), shrink-on-load where the options allow it, the
/// options' resizing as a transformer, and the options' format and quality.
final class ImageProcessor: Sendable {
    let manager: ImageManager
    let encoders: ImageCodersManager
    let maximumSourcePixelCount: Int
    let maximumResultPixelCount: Int
    let defaultQuality: Int

    init(configuration: ImageServerConfiguration, logger: Logger) {
        let decoders = ImageCodersManager(coders: [SourceDecoder(coders: .shared)])
        let decoding = ImageDecodingOptions(maximumPixelCount: configuration.maximumSourcePixelCount)
        manager = ImageManager(
            cache: ImageCache(namespace: "sources", root: configuration.cacheDirectory),
            loader: configuration.loader,
            configuration: ImageManager.Configuration(decodingOptions: decoding, coders: decoders),
            logger: logger
        )
        encoders = .shared
        maximumSourcePixelCount = configuration.maximumSourcePixelCount
        maximumResultPixelCount = configuration.maximumResultPixelCount
        defaultQuality = configuration.defaultQuality
    }

    /// Loads `source` through the manager and processes it per `options`.
    func process(_ source: URL, options: ProcessingOptions) async throws(ProcessingFailure) -> ProcessedImage {
        if let unsupported = options.unsupportedOption {
            throw ProcessingFailure(501, "the option '\(unsupported)' is not implemented yet")
        }
        let loaded: ImageLoadResult
        do {
            loaded = try await manager.loadImage(from: source, options: [.retryFailed, .decodeFirstFrameOnly], context: context(for: options))
        } catch {
            throw ProcessingFailure(error, maximumSourcePixelCount: maximumSourcePixelCount)
        }
        let image = loaded.image
        let format = outputFormat(for: image, requested: options.format)
        let encoding = ImageEncodingOptions(quality: Double(options.quality ?? defaultQuality) / 100)
        let encoders = self.encoders
        do {
            let data = try await WorkerThreads.processing.run { () throws -> Data in
                try encoders.encode(image, as: format, options: encoding)
            }
            return ProcessedImage(data: data, format: format)
        } catch {
            throw ProcessingFailure(500, "the image could not be encoded as \(format.displayName)")
        }
    }

    /// The manager's context for `options`: shrink-on-load, the transformer, EXIF rotation, results kept
    /// in memory only (the source bytes go to disk).
    private func context(for options: ProcessingOptions) -> ImageLoadContext {
        var decoding = manager.configuration.decodingOptions
        decoding.applyOrientation = options.autoRotate ?? true
        let shrink = options.shrinkOnLoad
        return ImageLoadContext(
            transformer: ProcessingTransformer(options: options, maximumPixelCount: maximumResultPixelCount),
            thumbnailPixelSize: shrink?.size,
            preserveAspectRatio: shrink?.fit,
            storeCacheType: .memory,
            decodingOptions: decoding
        )
    }

    /// The requested format; else the source's when it can be written; else PNG with alpha, JPEG without.
    func outputFormat(for image: Image, requested: OutputFormat?) -> ImageFormat {
        if let requested { return requested.imageFormat }
        let writable: Set<ImageFormat> = [.jpeg, .png, .gif, .webp, .avif]
        if writable.contains(image.format), encoders.canEncode(to: image.format) { return image.format }
        return image.hasAlpha ? .png : .jpeg
    }
}

extension OutputFormat {
    /// The library's format.
    var imageFormat: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .gif: .gif
        case .webp: .webp
        case .avif: .avif
        }
    }
}
