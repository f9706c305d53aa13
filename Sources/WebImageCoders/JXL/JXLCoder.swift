public import Foundation

/// Decodes and encodes JPEG XL (bare codestreams and the `JXL ` container) through libjxl 0.7.
///
/// Decoding gives 8-bit straight-alpha RGBA. libjxl is told to keep the stored orientation
/// (`JxlDecoderSetKeepOrientation`), and the codestream's orientation is reported as
/// `Image.orientation`, the convention of every coder here (`ImageDecodingOptions.applyOrientation`
/// turns the pixels upright). An animation decodes every (coalesced) frame with its duration and the
/// file's loop count (0: forever). The width and height from the header are checked against
/// `ImageDecodingOptions.maximumPixelCount` before any pixel memory is allocated.
///
/// Encoding writes lossy VarDCT at a Butteraugli distance derived from
/// `ImageEncodingOptions.quality` (libjxl's `JxlEncoderDistanceFromQuality`, the mapping cjxl uses:
/// quality 0.9 → distance 1.0, 0.5 → 4.6), or lossless modular with `ImageEncodingOptions.lossless`,
/// which round-trips RGBA exactly. The orientation and, for an animation, the frame durations (in
/// milliseconds) and the loop count are written too.
///
/// The coder also decodes progressively while the bytes arrive (`ProgressiveImageDecoding`).
///
/// Debian's libjxl 0.7 is built to print a line to stderr for each failed check on a corrupt file
/// (`./lib/jxl/dec_frame.cc:308: JXL_RETURN_IF_ERROR …`); the error thrown is the same either way.
public struct JXLCoder: ImageCoding {
    /// Settings that belong to the coder rather than to one call.
    public struct Configuration: Hashable, Sendable {
        /// The most threads libjxl may use for one image; default 2.
        public var maximumThreads: Int

        /// Creates a configuration; the defaults suit most callers.
        /// - Parameter maximumThreads: the most threads libjxl may use for one image (at least 1).
        public init(maximumThreads: Int = 2) {
            self.maximumThreads = max(1, maximumThreads)
        }
    }

    /// The coder's settings.
    public let configuration: Configuration

    /// Creates a coder with the default configuration.
    public init() {
        self.init(configuration: Configuration())
    }

    /// Creates a coder with the given configuration.
    /// - Parameter configuration: the thread count to use.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .jpegXL
    }

    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard ImageFormat(detecting: data) == .jpegXL else {
            throw ImageCodingError(.unsupportedFormat, format: ImageFormat(detecting: data), "not a JPEG XL file")
        }
        let decoded = try data.withUnsafeBytes { bytes in
            try LibJXL.decode(bytes, options: options, threads: configuration.maximumThreads)
        }
        let image = options.makeImage(frames: decoded.frames, format: .jpegXL, orientation: decoded.orientation,
                                      loopCount: decoded.loopCount, data: data, issues: decoded.issues)
        return ColorManagement.finish(image, profile: decoded.iccProfile, sourceIsGray: decoded.isGray, options: options)
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        format == .jpegXL
    }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard format == .jpegXL else {
            throw ImageCodingError(.unsupportedFormat, format: format, "JXLCoder encodes only JPEG XL")
        }
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        return try LibJXL.encode(
            frames: frames, orientation: image.orientation, loopCount: image.loopCount,
            distance: options.lossless ? 0 : Self.distance(forQuality: options.quality), lossless: options.lossless,
            effort: options.effort(in: 1...9) ?? 7, // without `effort`, 7 as cjxl
            configuration: configuration
        )
    }

    /// The Butteraugli distance for a quality from 0 to 1, as libjxl's `JxlEncoderDistanceFromQuality`
    /// (libjxl 0.9; 0.7 lacks it) on the 0–100 scale: `0.1 + (100 − q) × 0.09` from q = 30 up,
    /// `53/3000 q² − 23/20 q + 25` below; never under 0.1 (0 is lossless, which `ImageEncodingOptions.lossless` asks for).
    static func distance(forQuality quality: Double) -> Float {
        let q = min(max(quality, 0), 1) * 100
        let distance = q >= 30 ? 0.1 + (100 - q) * 0.09 : 53.0 / 3000 * q * q - 23.0 / 20 * q + 25
        return Float(min(max(distance, 0.1), 25))
    }
}
