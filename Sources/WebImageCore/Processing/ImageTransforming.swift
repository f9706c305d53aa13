/// Turns one image into another: resize, crop, round corners, blur… (SDWebImage's transformers).
///
/// Threading contract: a transformer is an immutable `Sendable` value; `transform` may run on any
/// thread, many at once. Its ``transformerKey`` identifies the transformation and its parameters, and
/// is appended to cache keys, so two transformers with equal keys must produce equal images.
///
/// Implement ``transform(pixels:)`` for a per-frame pixel operation; the default ``transform(_:)``
/// applies it to the first frame, or to every frame when the image is animated and
/// ``transformsAnimatedFrames`` is true.
public protocol ImageTransforming: Sendable {
    /// A stable string naming the transformation and its parameters, used in cache keys.
    var transformerKey: String { get }
    /// Whether every frame of an animation is transformed (true) or only the first frame is kept and transformed.
    var transformsAnimatedFrames: Bool { get }
    /// Transforms one frame's pixels.
    func transform(pixels: PixelBuffer) throws -> PixelBuffer
    /// Transforms a whole image; the default maps ``transform(pixels:)`` over the frames.
    func transform(_ image: Image) throws -> Image
}

extension ImageTransforming {
    public var transformsAnimatedFrames: Bool { true }

    public func transform(_ image: Image) throws -> Image {
        let frames = transformsAnimatedFrames ? image.frames : [image.frames[0]]
        let transformed = try frames.map { ImageFrame(pixels: try transform(pixels: $0.pixels), duration: $0.duration) }
        return Image(frames: transformed, format: image.format, scale: image.scale, orientation: image.orientation,
                     loopCount: image.loopCount, data: nil)
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

        public var transformsAnimatedFrames: Bool { transformers.allSatisfy(\.transformsAnimatedFrames) }

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
