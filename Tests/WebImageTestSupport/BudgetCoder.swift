package import Foundation
package import WebImageKit

/// The built-in PNG coder that stands a small test image in for one over the scale-down budget: it
/// replaces SDWebImage's 60 MB default (``ImageDecodingOptions/defaultScaleDownLimitBytes``) with
/// `budget` bytes, and records the budget it was asked for. A test then sees `.scaleDownLargeImages`
/// shrink an 8×6 image without decoding and resampling 60 MB of pixels.
package final class BudgetCoder: ImageCoding {
    private let png = PNGCoder()
    private let budget: Int
    private let requested = LockedValue<[Int?]>([])

    /// - Parameter budget: the bytes of pixels that stand for the default budget.
    package init(budget: Int) { self.budget = budget }

    /// The `scaleDownLimitBytes` of every decode, in order.
    package var requestedBudgets: [Int?] { requested.withLock { $0 } }

    package func canDecode(_ data: Data) -> Bool { png.canDecode(data) }

    package func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        requested.withLock { $0.append(options.scaleDownLimitBytes) }
        var options = options
        if options.scaleDownLimitBytes == ImageDecodingOptions.defaultScaleDownLimitBytes {
            options.scaleDownLimitBytes = budget
        }
        return try png.decode(data, options: options)
    }

    package func canEncode(to format: ImageFormat) -> Bool { png.canEncode(to: format) }

    package func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        try png.encode(image, as: format, options: options)
    }
}
