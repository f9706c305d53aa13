public import Foundation
public import WebImageCore

/// Decodes Windows icons and cursors (ICO, CUR) in Swift: reads the directory, picks one image and
/// decodes it, PNG entries through ``PNGCoder`` and bitmap entries (a DIB without file header, twice
/// as tall as the image, followed by a 1-bit AND transparency mask) through the BMP decoder.
///
/// The image picked is the largest (then the deepest), or, with `ImageDecodingOptions.thumbnailPixelSize`,
/// the smallest that covers the thumbnail, so a 16×16 request does not decode a 256×256 entry. 32-bit
/// entries use their alpha channel; others (and 32-bit ones whose alpha is zero everywhere) the AND mask.
/// Encoding writes the first frame, at most 256×256, as one PNG entry.
///
/// ```swift
/// let favicon = try ICOCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 32, height: 32)))
/// ```
public struct ICOCoder: ImageCoding {
    /// Creates the coder; it holds no state.
    public init() {}

    /// Whether the data starts with an ICO or CUR header.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .ico
    }

    /// Decodes the best entry; see the type's documentation.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        let entry = try data.withUnsafeBytes { bytes throws(ImageCodingError) in
            try ICODirectory(bytes, allowingCutEntries: !options.strict).best(covering: options.thumbnailPixelSize)
        }
        let payload = data.subdata(in: (data.startIndex + entry.data.lowerBound)..<(data.startIndex + entry.data.upperBound))
        if ImageFormat(detecting: payload) == .png {
            return try PNGCoder().decode(payload, options: options).with(format: .ico, data: options.keepsData ? data : nil)
        }
        let decoded = try payload.withUnsafeBytes { bytes throws(ImageCodingError) in
            let header = try BMPHeader(bytes, at: 0, isIcon: true, format: .ico)
            guard header.compression == .none || header.compression == .bitfields else {
                throw ImageCodingError(.unsupportedFormat, format: .ico, "a compressed bitmap in an icon")
            }
            return try BMPDecoder.decode(bytes, header: header, pixelStart: header.paletteEnd, isIcon: true, options: options, format: .ico)
        }
        return options.makeImage(frames: [ImageFrame(pixels: decoded.pixels)], format: .ico, data: data,
                                 issues: decoded.issue.map { [$0] } ?? [])
    }

    /// Whether `format` is ICO.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .ico
    }

    /// Encodes the first frame, upright, as an icon with one PNG entry; throws when a side is over 256 pixels.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard format == .ico else { throw ImageCodingError(.unsupportedFormat, format: format, "ICOCoder encodes only ICO") }
        let pixels = image.orientation == .up ? image.pixels : image.pixels.applyingOrientation(image.orientation)
        guard pixels.width <= BMPEncoder.maximumIconSide, pixels.height <= BMPEncoder.maximumIconSide else {
            throw ImageCodingError(.encodingFailed, format: .ico, "an icon is at most 256×256 pixels, this image is \(pixels.width)×\(pixels.height)")
        }
        let png = try PNGCoder().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
        return try BMPEncoder.ico(png: png, size: pixels.size, hasAlpha: pixels.hasAlpha)
    }
}
