/// Turns one image into another: resize, crop, round corners, blur… (SDWebImage's transformers).
///
/// Threading contract: a transformer is an immutable `Sendable` value; `transform` may run on any
/// thread, many at once. Its ``transformerKey`` identifies the transformation and its parameters, and
/// is appended to cache keys, so two transformers with equal keys must produce equal images.
///
/// Implement ``transform(pixels:)`` for a per-frame pixel operation; the default ``transform(_:)``
/// applies it to every frame. ``transform(_:allFrames:)`` keeps and transforms only the first frame
/// of an animation when asked (SDWebImage transforms animations only with TransformAnimatedImage).
public protocol ImageTransforming: Sendable {
    /// A stable string naming the transformation and its parameters, used in cache keys.
    var transformerKey: String { get }
    /// Transforms one frame's pixels.
    func transform(pixels: PixelBuffer) throws -> PixelBuffer
    /// Transforms a whole image; the default maps ``transform(pixels:)`` over the frames.
    func transform(_ image: Image) throws -> Image
}

extension ImageTransforming {
    public func transform(_ image: Image) throws -> Image {
        let transformed = try image.frames.map { ImageFrame(pixels: try transform(pixels: $0.pixels), duration: $0.duration) }
        return Image(frames: transformed, format: image.format, scale: image.scale, orientation: image.orientation,
                     loopCount: image.loopCount, data: nil, iccProfile: image.iccProfile, metadata: image.metadata,
                     issues: image.issues)
    }

    /// Transforms every frame (`allFrames`), or turns an animation into its transformed first frame.
    public func transform(_ image: Image, allFrames: Bool) throws -> Image {
        guard !allFrames, image.isAnimated else { return try transform(image) }
        return try transform(image.firstFrame)
    }
}

extension Image {
    /// The first frame as a still image, keeping format, scale and orientation.
    public var firstFrame: Image {
        guard isAnimated else { return self }
        return Image(pixels: pixels, format: format, scale: scale, orientation: orientation, iccProfile: iccProfile, metadata: metadata)
    }
}

/// The cache key for `key` transformed by `transformer`: SDWebImage's `key + "-" + transformerKey`.
public func transformedCacheKey(_ key: String, transformer: any ImageTransforming) -> String {
    transformer.transformerKey.isEmpty ? key : "\(key)-\(transformer.transformerKey)"
}

/// Caseless namespace for the built-in transformers.
public enum ImageTransformers {}

extension ImageTransformers {
    /// Runs transformers in order; its key joins theirs with `|`.
    public struct Pipeline: ImageTransforming {
        /// The transformers, applied first to last.
        public let transformers: [any ImageTransforming]

        /// Creates a pipeline.
        public init(_ transformers: [any ImageTransforming]) { self.transformers = transformers }

        public var transformerKey: String { transformers.map(\.transformerKey).joined(separator: "|") }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            try transformers.reduce(pixels) { try $1.transform(pixels: $0) }
        }

        public func transform(_ image: Image) throws -> Image {
            try transformers.reduce(image) { try $1.transform($0) }
        }
    }
}

/// Formats a number for a transformer key: integers without a decimal point, others with up to 3 decimals.
func keyNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    var text = String(format3: value)
    while text.hasSuffix("0") { text.removeLast() }
    return text
}

extension String {
    init(format3 value: Double) {
        let scaled = Int((value * 1000).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = abs(scaled)
        let fraction = String(magnitude % 1000)
        self = "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

extension RGBA {
    /// `#rrggbbaa`, for transformer keys.
    var hexString: String {
        let digits = Array("0123456789abcdef")
        return "#" + [red, green, blue, alpha].map { "\(digits[Int($0 >> 4)])\(digits[Int($0 & 15)])" }.joined()
    }
}
