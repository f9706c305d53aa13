import Foundation
import WebImageKit

/// The server's loader with its download stage timed: forwards to `base`.
struct TimedLoader: ImageLoading {
    let base: any ImageLoading
    let metrics: ServerMetrics

    func canLoad(_ url: URL) -> Bool { base.canLoad(url) }

    func loadData(
        for url: URL, options: DownloadOptions, validators: Validators?, progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData {
        try await metrics.time(.download) {
            try await base.loadData(for: url, options: options, validators: validators, progress: progress)
        }
    }
}

/// A transformer with its processing stage timed: forwards to `base`, under the same key.
struct TimedTransformer: ImageTransforming {
    let base: any ImageTransforming
    let metrics: ServerMetrics

    var transformerKey: String { base.transformerKey }

    func transform(pixels: PixelBuffer) throws -> PixelBuffer {
        try metrics.time(.process) { try base.transform(pixels: pixels) }
    }

    func transform(_ image: Image) throws -> Image {
        try metrics.time(.process) { try base.transform(image) }
    }
}

/// The server's decoder with its decode stage timed: forwards to `base`.
struct TimedDecoder: ImageCoding {
    let base: any ImageCoding
    let metrics: ServerMetrics

    func canDecode(_ data: Data) -> Bool { base.canDecode(data) }

    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        try metrics.time(.decode) { try base.decode(data, options: options) }
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        try base.encode(image, as: format, options: options)
    }
}
