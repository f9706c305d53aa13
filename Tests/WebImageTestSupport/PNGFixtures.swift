package import Foundation
import WebImageKit

/// A real 1×1 PNG whose IHDR claims `width`×`height` (with a valid CRC): for tests of the pixel limit,
/// which must refuse it from the header, before any pixel is allocated.
package func pngClaiming(width: UInt32, height: UInt32) throws -> Data {
    let png = try ImageCodersManager.shared.encode(
        Image(pixels: PixelBuffer(width: 1, height: 1, fill: .white)), as: .png, options: ImageEncodingOptions())
    var bytes = [UInt8](png)
    for (index, value) in [width, height].enumerated() {
        for shift in 0..<4 { bytes[16 + index * 4 + shift] = UInt8(truncatingIfNeeded: value >> (24 - 8 * shift)) }
    }
    let crc = PNGCRC32.checksum(bytes[12..<29])
    for shift in 0..<4 { bytes[29 + shift] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * shift)) }
    return Data(bytes)
}
