public import Foundation

/// Rasterizes SVG through librsvg 2.54 and cairo, as SDWebImage's SVG coder does on Apple platforms.
///
/// The image is drawn at `ImageDecodingOptions.thumbnailPixelSize` when one is given (fitted
/// inside it, or covering or stretched to it as `ImageDecodingOptions.thumbnailMode` says; a
/// vector image is enlarged too), and otherwise at its intrinsic size: the `width`/`height` of the
/// root element in pixels (librsvg resolves physical units at 96 dpi), or its `viewBox` when those
/// are missing or relative. Either size is checked against `ImageDecodingOptions.maximumPixelCount`
/// before any pixel memory is allocated. The result is straight-alpha RGBA.
///
/// Nothing outside the data is read: the document is loaded from memory with no base file, and
/// librsvg resolves no external reference (`href="file:…"`, `http:`, relative paths) without one;
/// only `data:` URLs inside the document are drawn. librsvg's own limits (element count, nesting) stay on.
/// Encoding SVG is not offered.
public struct SVGCoder: ImageCoding {
    /// Creates a coder.
    public init() {}

    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .svg
    }

    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard ImageFormat(detecting: data) == .svg else {
            throw ImageCodingError(.unsupportedFormat, format: ImageFormat(detecting: data), "not an SVG document")
        }
        let pixels = try data.withUnsafeBytes { try LibRSVG.rasterize($0, options: options) }
        return options.makeImage(frames: [ImageFrame(pixels: pixels)], format: .svg, data: data)
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        false
    }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        throw ImageCodingError(.encodingFailed, format: format, "SVGCoder does not encode")
    }
}
