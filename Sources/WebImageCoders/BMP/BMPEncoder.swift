import Foundation
import WebImageCore

/// Writes bitmaps and icons in Swift: BMP as 24-bit BGR (opaque pixels) or 32-bit BGRA with a `BITMAPV4HEADER`
/// and bit-field masks (pixels with alpha), rows bottom-up; ICO as one PNG entry, as imgproxy and Windows Vista
/// and later write them.
enum BMPEncoder {
    /// The largest side an icon entry can declare.
    static let maximumIconSide = 256

    /// `pixels` as a BMP file.
    static func bmp(_ pixels: PixelBuffer) throws(ImageCodingError) -> Data {
        let hasAlpha = pixels.hasAlpha && !pixels.isOpaque
        let bytesPerPixel = hasAlpha ? 4 : 3
        let infoSize = hasAlpha ? 108 : 40
        let rowSize = (pixels.width * bytesPerPixel + 3) & ~3
        let (imageSize, overflow) = rowSize.multipliedReportingOverflow(by: pixels.height)
        let headerSize = BMPCoder.fileHeaderSize + infoSize
        guard !overflow, imageSize <= Int(UInt32.max) - headerSize else {
            throw ImageCodingError(.encodingFailed, format: .bmp, "\(pixels.width)×\(pixels.height) pixels do not fit a BMP file")
        }
        var output = [UInt8]()
        output.reserveCapacity(headerSize + imageSize)
        output += [0x42, 0x4D] + le32(headerSize + imageSize) + le32(0) + le32(headerSize)
        output += le32(infoSize) + le32(pixels.width) + le32(pixels.height) + le16(1) + le16(bytesPerPixel * 8)
        output += le32(hasAlpha ? 3 : 0) + le32(imageSize) + le32(2835) + le32(2835) + le32(0) + le32(0) // 72 dpi
        if hasAlpha {
            output += le32(0x00FF_0000) + le32(0x0000_FF00) + le32(0x0000_00FF) + le32(0xFF00_0000)
            output += Array("BGRs".utf8) // LCS_sRGB, stored little-endian
            output += [UInt8](repeating: 0, count: 36 + 12) // endpoints and gamma, unused for sRGB
        }
        let padding = [UInt8](repeating: 0, count: rowSize - pixels.width * bytesPerPixel)
        pixels.withUnsafeBytes { source in
            for y in stride(from: pixels.height - 1, through: 0, by: -1) {
                let start = y * pixels.bytesPerRow
                for x in 0..<pixels.width {
                    let p = start + 4 * x
                    output += [source[p + 2], source[p + 1], source[p]]
                    if hasAlpha { output.append(source[p + 3]) }
                }
                output += padding
            }
        }
        return Data(output)
    }

    /// `png` (the encoded pixels of a `size` image) wrapped as the single entry of an ICO file; throws when a side
    /// is over 256.
    static func ico(png: Data, size: PixelSize, hasAlpha: Bool) throws(ImageCodingError) -> Data {
        guard size.width <= maximumIconSide, size.height <= maximumIconSide else {
            throw ImageCodingError(
                .encodingFailed, format: .ico, "an icon is at most 256×256 pixels, this image is \(size.width)×\(size.height)")
        }
        var output: [UInt8] = [0, 0, 1, 0, 1, 0] // reserved, type 1 (icon), one image
        output += [UInt8(size.width & 0xFF), UInt8(size.height & 0xFF), 0, 0] // 256 is written as 0; no palette
        output += le16(1) + le16(hasAlpha ? 32 : 24) + le32(png.count) + le32(6 + 16)
        var data = Data(output)
        data.append(png)
        return data
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    private static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
}
