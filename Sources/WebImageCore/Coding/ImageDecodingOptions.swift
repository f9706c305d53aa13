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
    /// Keep the encoded bytes in ``Image/data`` (for re-storing the original without re-encoding).
    public var keepsData: Bool

    /// Creates options; the defaults decode every frame, keep the stored orientation and allow 100 megapixels.
    public init(
        firstFrameOnly: Bool = false,
        scale: Double? = nil,
        applyOrientation: Bool = false,
        maximumPixelCount: Int = ImageDecodingOptions.defaultMaximumPixelCount,
        keepsData: Bool = false
    ) {
        self.firstFrameOnly = firstFrameOnly
        self.scale = scale
        self.applyOrientation = applyOrientation
        self.maximumPixelCount = maximumPixelCount
        self.keepsData = keepsData
    }
}
