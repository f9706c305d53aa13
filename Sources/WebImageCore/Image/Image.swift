public import Foundation

/// A decoded image: one frame for a still image, several for an animation, with the metadata
/// the pipeline carries along (format, scale, orientation, loop count, the original bytes).
///
/// `Image` is an immutable final class, so caches and callers share one copy of the pixels and a
/// weak side-table can find an image that is still in use. Every frame has the same pixel size.
///
/// ```swift
/// let image = try ImageCodersManager.shared.decode(data)
/// print(image.pixelSize, image.format, image.frames.count)
/// ```
public final class Image: Sendable {
    /// The frames, at least one; every frame covers the full canvas.
    public let frames: [ImageFrame]
    /// The format the image was decoded from (`.unknown` for an image made in memory).
    public let format: ImageFormat
    /// Points-to-pixels factor: 2 for an `@2x` key, 3 for `@3x`, otherwise 1.
    public let scale: Double
    /// How the pixels must be turned to be upright; `.up` when the pixels already are.
    public let orientation: ImageOrientation
    /// How many times an animation plays: 0 means forever (GIF's NETSCAPE2.0 convention), 1 means once.
    public let loopCount: Int
    /// The encoded bytes the image was decoded from, when the decoder was asked to keep them.
    public let data: Data?
    /// The ICC profile the pixels are in, when they are not sRGB.
    ///
    /// Decoders convert pixels with an embedded profile to sRGB and leave this `nil`; with
    /// ``ImageDecodingOptions/keepsColorProfile`` they keep the original pixels and hand the embedded
    /// profile here instead. Encoders that can embed a profile (JPEG, PNG) write it into their output.
    public let iccProfile: Data?
    /// The EXIF, XMP and IPTC blocks of the source file, when the decoder was asked to keep them
    /// (``ImageDecodingOptions/keepsMetadata``); encoders write them back where their format can.
    public let metadata: ImageMetadata?
    /// What was wrong with the file, when a lenient decode showed what it could of a damaged one
    /// (see ``DecodingIssue`` and ``ImageDecodingOptions/strict``); empty for a clean decode.
    public let issues: [DecodingIssue]

    /// Creates an image from frames; `frames` must not be empty and all frames must have one size.
    public init(
        frames: [ImageFrame],
        format: ImageFormat = .unknown,
        scale: Double = 1,
        orientation: ImageOrientation = .up,
        loopCount: Int = 0,
        data: Data? = nil,
        iccProfile: Data? = nil,
        metadata: ImageMetadata? = nil,
        issues: [DecodingIssue] = []
    ) {
        precondition(!frames.isEmpty, "Image needs at least one frame")
        precondition(frames.allSatisfy { $0.pixels.size == frames[0].pixels.size }, "Image frames must share one size")
        self.frames = frames
        self.format = format
        self.scale = scale > 0 ? scale : 1
        self.orientation = orientation
        self.loopCount = loopCount
        self.data = data
        self.iccProfile = iccProfile
        self.metadata = metadata?.isEmpty == false ? metadata : nil
        self.issues = issues
    }

    /// Creates a still image from one pixel buffer.
    public convenience init(
        pixels: PixelBuffer,
        format: ImageFormat = .unknown,
        scale: Double = 1,
        orientation: ImageOrientation = .up,
        data: Data? = nil,
        iccProfile: Data? = nil,
        metadata: ImageMetadata? = nil
    ) {
        self.init(
            frames: [ImageFrame(pixels: pixels)], format: format, scale: scale, orientation: orientation, data: data,
            iccProfile: iccProfile, metadata: metadata
        )
    }

    /// The first frame's pixels: the still image, or an animation's poster frame.
    public var pixels: PixelBuffer { frames[0].pixels }
    /// The size in pixels, as stored (before orientation).
    public var pixelSize: PixelSize { frames[0].pixels.size }
    /// The size in points: pixels divided by ``scale``, with width and height swapped when the orientation turns the image.
    public var size: (width: Double, height: Double) {
        let upright = orientation.swapsDimensions ? PixelSize(width: pixelSize.height, height: pixelSize.width) : pixelSize
        return (Double(upright.width) / scale, Double(upright.height) / scale)
    }
    /// Whether the image has more than one frame.
    public var isAnimated: Bool { frames.count > 1 }
    /// Whether any frame may have non-opaque pixels.
    public var hasAlpha: Bool { frames.contains { $0.pixels.hasAlpha } }
    /// The sum of all frame durations.
    public var totalDuration: Duration { frames.reduce(.zero) { $0 + $1.duration } }
    /// The memory the pixels take, in bytes: what a memory cache charges for this image.
    public var memoryCost: Int { frames.reduce(0) { $0 + $1.pixels.byteCount } }

    /// A copy with other metadata; the pixels are shared, not copied, and the ``issues`` kept.
    public func with(
        format: ImageFormat? = nil,
        scale: Double? = nil,
        orientation: ImageOrientation? = nil,
        loopCount: Int? = nil,
        data: Data?? = nil,
        iccProfile: Data?? = nil,
        metadata: ImageMetadata?? = nil
    ) -> Image {
        Image(
            frames: frames,
            format: format ?? self.format,
            scale: scale ?? self.scale,
            orientation: orientation ?? self.orientation,
            loopCount: loopCount ?? self.loopCount,
            data: data ?? self.data,
            iccProfile: iccProfile ?? self.iccProfile,
            metadata: metadata ?? self.metadata,
            issues: issues
        )
    }
}
