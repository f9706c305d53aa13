public import Foundation

/// How a decoder should decode: what to keep, what to check, and which limits to enforce.
///
/// Every field has a safe default, so `ImageDecodingOptions()` is what most callers want.
public struct ImageDecodingOptions: Hashable, Sendable {
    /// The default maximum pixel count: 100 megapixels (400 MB of RGBA).
    public static let defaultMaximumPixelCount = 100_000_000

    /// Decode only the first frame of an animation, as a still image.
    public var firstFrameOnly: Bool
    /// The display scale to give the image (2 for `@2x`); `nil` keeps 1. Use ``imageScale(forKey:)`` to derive it from a key.
    public var scale: Double?
    /// Turn the pixels upright according to the file's orientation tag; the result then reports `.up`.
    public var applyOrientation: Bool
    /// The largest `width × height` accepted, checked from the header before any pixel memory is allocated.
    /// A larger image fails with ``ImageCodingError/Code/imageTooLarge``.
    public var maximumPixelCount: Int
    /// The most memory all decoded frames of an animation may take together, in bytes (default 512 MiB).
    /// An animation over it fails with ``ImageCodingError/Code/animationTooLarge``, or, with
    /// ``firstFrameWhenAnimationTooLarge``, decodes as its first frame only.
    public var maximumAnimationByteCount: Int
    /// Decode only the first frame (instead of failing) when an animation exceeds ``maximumAnimationByteCount``.
    public var firstFrameWhenAnimationTooLarge: Bool
    /// Keep the encoded bytes in ``Image/data`` (for re-storing the original without re-encoding).
    public var keepsData: Bool

    /// Creates options; the defaults decode every frame, keep the stored orientation and allow 100 megapixels.
    public init(
        firstFrameOnly: Bool = false,
        scale: Double? = nil,
        applyOrientation: Bool = false,
        maximumPixelCount: Int = ImageDecodingOptions.defaultMaximumPixelCount,
        maximumAnimationByteCount: Int = 512 << 20,
        firstFrameWhenAnimationTooLarge: Bool = false,
        keepsData: Bool = false
    ) {
        self.firstFrameOnly = firstFrameOnly
        self.scale = scale
        self.applyOrientation = applyOrientation
        self.maximumPixelCount = maximumPixelCount
        self.maximumAnimationByteCount = maximumAnimationByteCount
        self.firstFrameWhenAnimationTooLarge = firstFrameWhenAnimationTooLarge
        self.keepsData = keepsData
    }
}

extension ImageDecodingOptions {
    /// Builds the ``Image`` a decoder returns, applying the options every decoder shares:
    /// ``scale``, ``applyOrientation`` and ``keepsData``.
    public func makeImage(
        frames: [ImageFrame], format: ImageFormat, orientation: ImageOrientation = .up,
        loopCount: Int = 0, data: Data
    ) -> Image {
        let image = Image(
            frames: frames, format: format, scale: scale ?? 1, orientation: orientation,
            loopCount: loopCount, data: keepsData ? data : nil
        )
        return applyOrientation ? image.normalizedOrientation() : image
    }
}
