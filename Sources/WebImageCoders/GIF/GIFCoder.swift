public import Foundation

/// Decodes and encodes GIF, still and animated: giflib reads the records and encodes, the image data's
/// LZW is decompressed by WebImageKit's own code.
///
/// Decoding composites every frame onto the full canvas the way browsers do: the canvas starts
/// transparent, a frame is clipped to it, the transparent index leaves pixels alone, disposal 2
/// clears the frame's rectangle to transparent and disposal 3 restores what was under it. A frame
/// with neither a local nor a global colour table uses black and white followed by black (the GIF89a
/// recommendation). A stored delay of 10 ms or less plays as 100 ms; a single-frame
/// result has a duration of zero. `Image.loopCount` is the NETSCAPE2.0 (or ANIMEXTS1.0) value as
/// stored, 0 meaning forever, and 1 when the extension is absent, as SDWebImage reports it.
/// Every frame's memory counts against `ImageDecodingOptions.maximumAnimationByteCount`.
/// Image data that names a code its table does not hold yet, or whose minimum code size is outside
/// 1…8, is corrupt (`corruptData`), where giflib would emit a made-up pixel; image data that ends before
/// the frame's last pixel is `truncatedData` after an early end code, `corruptData` when its sub-blocks
/// simply run out.
///
/// ```swift
/// let image = try GIFCoder().decode(data)
/// let gif = try GIFCoder().encode(image, as: .gif)
/// ```
public struct GIFCoder: ImageCoding {
    /// Creates the coder; it holds no state.
    public init() {}

    /// Whether the data starts with a GIF87a or GIF89a signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .gif
    }

    /// Decodes every frame (or only the first, per `options`) composited onto the full canvas.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard canDecode(data) else {
            throw ImageCodingError(.unsupportedFormat, format: ImageFormat(detecting: data), "not a GIF")
        }
        var decoded = try GIFLib.decode(data, options: options)
        if decoded.frames.count == 1 { decoded.frames[0].duration = .zero }
        return options.makeImage(frames: decoded.frames, format: .gif, loopCount: decoded.loopCount, data: data,
                                 sourceSize: decoded.sourceSize, issues: decoded.issues)
    }

    /// Whether `format` is GIF.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .gif
    }
}
