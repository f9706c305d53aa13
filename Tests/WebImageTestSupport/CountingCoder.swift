package import Foundation
package import WebImageKit

/// The built-in PNG coder, counting its decodes: shows which registry decoded what.
package final class CountingCoder: ImageCoding {
    private let png = PNGCoder()
    private let count = LockedValue(0)

    package init() {}

    package var decodeCount: Int { count.withLock { $0 } }

    package func canDecode(_ data: Data) -> Bool { png.canDecode(data) }

    package func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        count.withLock { $0 += 1 }
        return try png.decode(data, options: options)
    }

    package func canEncode(to format: ImageFormat) -> Bool { png.canEncode(to: format) }

    package func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        try png.encode(image, as: format, options: options)
    }
}
