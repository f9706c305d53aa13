public import Foundation

/// Decodes and encodes AVIF still images and image sequences (`avis`) through libavif 0.11.
///
/// Decoding turns any bit depth (8, 10, 12) and chroma layout into 8-bit straight-alpha RGBA,
/// reports the `irot`/`imir` transform (or, when those are absent, the EXIF orientation) as
/// `Image.orientation`, and decodes every frame of a sequence with its duration. libavif 0.11
/// exposes no repetition count, so a sequence reports `loopCount` 0 (forever), which is how
/// browsers play AVIF sequences. An ICC profile (`colr` of type `prof`) converts the pixels to sRGB, and so do
/// colour code points that are not sRGB's (`colr` of type `nclx`: Display P3, BT.2020…, as a profile made from
/// them; PQ and HLG are left as they are), unless `ImageDecodingOptions.keepsColorProfile` keeps the profile in
/// `Image.iccProfile`.
///
/// Encoding writes 4:2:0 lossy AV1 at `ImageEncodingOptions.quality`, mapped linearly onto
/// libavif's quantizer (0 best … 63 worst): `q = round((1 − quality) × 63)` for the minimum and the
/// maximum quantizer of colour and alpha alike (quality 0.9 → 6, 0.5 → 32), the same scale as the
/// `quality` setting libavif 1.x later added. `ImageEncodingOptions.lossless` writes 4:4:4 with
/// the identity matrix and quantizer 0, which round-trips RGBA exactly. An orientation other than
/// `.up` is written as `irot`/`imir`, so it survives a round trip.
///
/// ```swift
/// let coder = AVIFCoder()
/// let image = try coder.decode(data)
/// let smaller = try coder.encode(image, as: .avif, options: ImageEncodingOptions(quality: 0.6))
/// ```
public struct AVIFCoder: ImageCoding {
    /// The AV1 codec libavif should use; which ones exist depends on how libavif was built.
    public enum Codec: String, Hashable, Sendable {
        /// libavif's own preference: dav1d, then libgav1, then aom to decode; aom, then rav1e, then SVT-AV1 to encode.
        case automatic
        /// libaom, which decodes and encodes.
        case aom
        /// dav1d, decode only: the fastest decoder. libavif 0.11 leaves dav1d's default logger on, so a
        /// corrupt AV1 bitstream makes dav1d write a line to stderr; ``aom`` decodes silently, about 4× slower.
        case dav1d
        /// libgav1, decode only.
        case libgav1
        /// rav1e, encode only.
        case rav1e
        /// SVT-AV1, encode only.
        case svt
    }

    /// Settings that belong to the coder rather than to one call.
    public struct Configuration: Hashable, Sendable {
        /// The decoder to use; default ``Codec/automatic`` (dav1d on Debian).
        public var decodingCodec: Codec
        /// The encoder to use; default ``Codec/automatic`` (aom on Debian).
        public var encodingCodec: Codec
        /// The most threads libavif and the codec may use for one image; default 2.
        public var maximumThreads: Int

        /// Creates a configuration; the defaults suit most callers.
        public init(decodingCodec: Codec = .automatic, encodingCodec: Codec = .automatic, maximumThreads: Int = 2) {
            self.decodingCodec = decodingCodec
            self.encodingCodec = encodingCodec
            self.maximumThreads = max(maximumThreads, 1)
        }
    }

    /// The coder's settings.
    public let configuration: Configuration

    /// Creates a coder with the default configuration.
    public init() {
        self.init(configuration: Configuration())
    }

    /// Creates a coder with the given configuration.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .avif
    }

    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        let decoded = try data.withUnsafeBytes { bytes in
            try Self.checkContainer(bytes)
            return try LibAVIF.decode(bytes, options: options, configuration: configuration)
        }
        // libavif 0.11 has no repetition count for sequences: 0 means forever, as browsers play them.
        let image = options.makeImage(frames: decoded.frames, format: .avif, orientation: decoded.orientation,
                                      loopCount: 0, data: data, sourceSize: decoded.sourceSize)
        return ColorManagement.finish(image, profile: decoded.iccProfile, options: options)
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        format == .avif
    }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard format == .avif else {
            throw ImageCodingError(.unsupportedFormat, format: format, "AVIFCoder encodes only AVIF")
        }
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        let quantizer = options.lossless ? 0 : Self.quantizer(forQuality: options.quality)
        // `effort` 0…1 is speed 10…0; without it speed 6, as avifenc.
        let speed = options.effort(in: 0...10).map { 10 - $0 } ?? 6
        return try LibAVIF.encode(frames: frames, orientation: image.orientation, quantizer: quantizer,
                                  lossless: options.lossless, speed: speed, exif: MetadataEmbedding.exif(for: image),
                                  xmp: image.metadata?.xmp, profile: image.iccProfile, configuration: configuration)
    }

    /// libavif's quantizer (0 best … 63 worst) for a quality from 0 to 1: `round((1 − quality) × 63)`.
    static func quantizer(forQuality quality: Double) -> Int {
        Int(((1 - min(max(quality, 0), 1)) * 63).rounded())
    }

    /// Rejects data that is not an ISO-BMFF file or is shorter than its boxes declare, before libavif sees it.
    private static func checkContainer(_ bytes: UnsafeRawBufferPointer) throws {
        if bytes.count >= 8, !bytes[4..<8].elementsEqual("ftyp".utf8) {
            throw ImageCodingError(.unsupportedFormat, format: .unknown, "the data does not start with an ISO-BMFF 'ftyp' box")
        }
        if bytes.count < 8 || AVIFContainer.isTruncated(bytes) {
            throw ImageCodingError(.truncatedData, format: .avif, "the data ends inside a box (\(bytes.count) bytes)")
        }
        let format = ImageFormat(detecting: bytes)
        guard format == .avif else {
            throw ImageCodingError(.unsupportedFormat, format: format, "the 'ftyp' box does not name an AVIF brand")
        }
    }
}
