public import Foundation
public import WebImageCore

/// Decodes Windows icons and cursors (ICO, CUR) in Swift: reads the directory, picks one image and
/// decodes it, PNG entries through ``PNGCoder`` and bitmap entries (a DIB without file header, twice
/// as tall as the image, followed by a 1-bit AND transparency mask) through the BMP decoder.
///
/// The image picked is the largest (then the deepest), or, with `ImageDecodingOptions.thumbnailPixelSize`,
/// the smallest that covers the thumbnail, so a 16×16 request does not decode a 256×256 entry. 32-bit
/// entries use their alpha channel; others (and 32-bit ones whose alpha is zero everywhere) the AND mask.
/// This coder does not encode.
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
            try ICODirectory(bytes).best(covering: options.thumbnailPixelSize)
        }
        let payload = data.subdata(in: (data.startIndex + entry.data.lowerBound)..<(data.startIndex + entry.data.upperBound))
        if ImageFormat(detecting: payload) == .png {
            return try PNGCoder().decode(payload, options: options).with(format: .ico, data: options.keepsData ? data : nil)
        }
        let pixels = try payload.withUnsafeBytes { bytes throws(ImageCodingError) in
            let header = try BMPHeader(bytes, at: 0, isIcon: true, format: .ico)
            guard header.compression == .none || header.compression == .bitfields else {
                throw ImageCodingError(.unsupportedFormat, format: .ico, "a compressed bitmap in an icon")
            }
            return try BMPDecoder.decode(bytes, header: header, pixelStart: header.paletteEnd, isIcon: true, options: options, format: .ico)
        }
        return options.makeImage(frames: [ImageFrame(pixels: pixels)], format: .ico, data: data)
    }

    /// ICO is not written.
    public func canEncode(to format: ImageFormat) -> Bool {
        false
    }

    /// Always throws: this coder does not encode.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        throw ImageCodingError(.encodingFailed, format: format, "ICOCoder does not encode")
    }
}
