public import Foundation

/// A coder that can decode an animation frame by frame, on demand, instead of all frames at once
/// (SDWebImage's `SDAnimatedImageCoder`; DESIGN "Core model").
///
/// The source it makes keeps the encoded bytes and one composition canvas, so an animation that
/// would take hundreds of megabytes fully decoded plays in the memory of a few frames.
public protocol AnimatedImageDecoding: ImageDecoding {
    /// A frame source for `data`, or `nil` when the data is not an animation this coder decodes frame
    /// by frame (a still PNG or WebP). The header is checked at once (dimensions against
    /// ``ImageDecodingOptions/maximumPixelCount``, structure, truncation where the format allows it)
    /// and throws ``ImageCodingError`` as ``ImageDecoding/decode(_:options:)`` would; corrupt frame data
    /// throws later, from ``AnimatedImageFrameSource/frame(at:)``.
    ///
    /// Of the options, ``ImageDecodingOptions/maximumPixelCount``, ``ImageDecodingOptions/thumbnailPixelSize``,
    /// ``ImageDecodingOptions/thumbnailMode``, ``ImageDecodingOptions/scaleDownLimitBytes`` and
    /// ``ImageDecodingOptions/applyOrientation`` apply to every frame as in a full decode; the frame and
    /// memory limits of a full decode (`firstFrameOnly`, `maximumAnimationByteCount`) do not apply.
    func makeAnimatedFrameSource(for data: Data, options: ImageDecodingOptions) throws -> (any AnimatedImageFrameSource)?
}
