public import Foundation
public import WebImageCore

/// Decodes Windows and OS/2 bitmaps (BMP) in Swift, everything browsers show: 1-, 2-, 4- and 8-bit
/// palettes, 16- and 32-bit pixels with default or BI_BITFIELDS masks (alpha included), 24-bit,
/// RLE8 and RLE4 (pixels the runs skip are transparent), bottom-up and top-down rows, every header
/// version (core, OS/2 2.x, INFO, V2–V5), and the JPEG or PNG a bitmap may wrap.
///
/// A 32-bit bitmap's fourth byte is read as alpha unless it is zero everywhere (then the image is
/// opaque), as browsers do. A V5 header's embedded ICC profile converts the pixels to sRGB, unless
/// `ImageDecodingOptions.keepsColorProfile` keeps it in `Image.iccProfile`. The size is checked against
/// `ImageDecodingOptions.maximumPixelCount` and the data against the rows it must hold before pixels
/// are allocated. Encoding writes the first frame as 24-bit BGR, or 32-bit BGRA when it has alpha.
///
/// ```swift
/// let image = try BMPCoder().decode(data)
/// ```
public struct BMPCoder: ImageCoding {
    /// The file header: "BM", file size, two reserved fields, pixel data offset.
    static let fileHeaderSize = 14

    /// Creates the coder; it holds no state.
    public init() {}

    /// Whether the data starts with "BM" and a known bitmap header size.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .bmp
    }

    /// Decodes the bitmap into RGBA; throws `ImageCodingError` for corrupt, oversized or unsupported files, and for
    /// truncated ones when `ImageDecodingOptions.strict` or no whole row is there. Otherwise pixel data cut short keeps
    /// the rows that are there, the rest transparent, as browsers show it, and `Image.issues` says so.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        let decoded = try data.withUnsafeBytes { bytes throws -> (BMPDecoder.Decoded?, Data?, Range<Int>) in
            guard bytes.count >= Self.fileHeaderSize, bytes[0] == 0x42, bytes[1] == 0x4D else {
                throw ImageCodingError(
                    bytes.count < Self.fileHeaderSize ? .truncatedData : .unsupportedFormat, format: .bmp, "not a BMP file header"
                )
            }
            let header = try BMPHeader(bytes, at: Self.fileHeaderSize, isIcon: false, format: .bmp)
            let offset = Int(UInt32(bytes[10]) | UInt32(bytes[11]) << 8 | UInt32(bytes[12]) << 16 | UInt32(bytes[13]) << 24)
            // Some writers leave the offset 0: the pixels then follow the colour table.
            let pixelStart = offset == 0 ? header.paletteEnd : offset
            let profile = header.profileRange.map { Data(bytes[$0]) }
            if header.compression == .jpeg || header.compression == .png {
                guard pixelStart < bytes.count else { throw ImageCodingError(.truncatedData, format: .bmp, "no embedded image") }
                let end = header.imageSize > 0 ? min(bytes.count, pixelStart + header.imageSize) : bytes.count
                return (nil, profile, pixelStart..<end)
            }
            let pixels = try BMPDecoder.decode(bytes, header: header, pixelStart: pixelStart, isIcon: false, options: options, format: .bmp)
            return (pixels, profile, 0..<0)
        }
        guard let bitmap = decoded.0 else {
            // BI_JPEG / BI_PNG: the pixel data is a whole file of that format.
            let embedded = data.subdata(in: (data.startIndex + decoded.2.lowerBound)..<(data.startIndex + decoded.2.upperBound))
            let coder: any ImageDecoding = ImageFormat(detecting: embedded) == .png ? PNGCoder() : JPEGCoder()
            return try coder.decode(embedded, options: options).with(format: .bmp)
        }
        let image = options.makeImage(frames: [ImageFrame(pixels: bitmap.pixels)], format: .bmp, data: data,
                                      issues: bitmap.issue.map { [$0] } ?? [])
        return ColorManagement.finish(image, profile: decoded.1, options: options)
    }

    /// Whether `format` is BMP.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .bmp
    }

    /// Encodes the first frame as an uncompressed bitmap; see the type's documentation.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard format == .bmp else { throw ImageCodingError(.unsupportedFormat, format: format, "BMPCoder encodes only BMP") }
        return try BMPEncoder.bmp(image.orientation == .up ? image.pixels : image.pixels.applyingOrientation(image.orientation))
    }
}
