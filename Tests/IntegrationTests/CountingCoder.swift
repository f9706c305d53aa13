import Foundation
import WebImageKit

/// Decodes PNG through the built-in coder and counts the calls.
final class CountingCoder: ImageCoding {
    private let png = PNGCoder()
    private let count = LockedValue(0)

    var decodeCount: Int { count.withLock { $0 } }

    func canDecode(_ data: Data) -> Bool { png.canDecode(data) }

    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        count.withLock { $0 += 1 }
        return try png.decode(data, options: options)
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        throw ImageCodingError(.encodingFailed, format: format, "decode only")
    }
}
