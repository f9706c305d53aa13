public import Foundation
public import WebImageCore

/// Decodes and encodes WebP through libwebp: lossy, lossless, alpha, animation and EXIF orientation.
///
/// Decoding writes RGBA straight into the image's pixel storage (libwebp's advanced API, multi-threaded);
/// animations come out as fully composited canvases, one per frame. Encoding writes a lossy file at
/// `ImageEncodingOptions.quality` or a lossless one, an animation when the image has several frames,
/// and an `EXIF` chunk when the image's orientation is not `.up`. An `ICCP` profile converts decoded
/// pixels to sRGB, unless `ImageDecodingOptions.keepsColorProfile` keeps it in `Image.iccProfile`.
///
/// ```swift
/// let coder = WebPCoder()
/// let image = try coder.decode(data)
/// let lossless = try coder.encode(image, as: .webp, options: ImageEncodingOptions(lossless: true))
/// ```
public struct WebPCoder: ImageCoding {
    /// Creates the coder; it holds no state, so one instance may be shared by all threads.
    public init() {}

    /// Whether `data` starts with a WebP RIFF header (`RIFF????WEBP`).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .webp
    }

    /// Decodes a still or animated WebP; throws `ImageCodingError` for a broken header, no decodable pixels or too
    /// large files, and (with `ImageDecodingOptions.strict`) for any damage. Otherwise a damaged file shows what
    /// decodes, as browsers show it (see ``WebPDamage``), and `Image.issues` says what was wrong.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        try decode(data, options: options, scaledTo: nil)
    }

    /// Decodes, letting libwebp scale a still image to exactly `size` while decoding (for thumbnails).
    ///
    /// The file's own dimensions and `size` are both checked against `ImageDecodingOptions.maximumPixelCount`
    /// (libwebp's lossless decoder needs full-size working memory even when it scales). libwebp stretches to
    /// `size` as given: the caller keeps the aspect ratio. Animations cannot be scaled by libwebp and are
    /// returned at their full size.
    func decode(_ data: Data, options: ImageDecodingOptions, scaledTo size: PixelSize?) throws(ImageCodingError) -> Image {
        let container = try Self.container(of: data, options: options)
        typealias Decoded = (
            frames: [ImageFrame], loopCount: Int, orientation: ImageOrientation, sourceSize: PixelSize, issues: [DecodingIssue]
        )
        let decoded = try withBytes(of: data) { bytes throws(ImageCodingError) -> Decoded in
            let (features, orientation) = try Self.header(bytes, container: container, options: options)
            let sourceSize = PixelSize(width: features.width, height: features.height)
            try options.checkSourceSize(sourceSize, format: .webp)
            if features.hasAnimation {
                let animation = try WebPAnimationCodec.decode(bytes, features: features, options: options)
                return (animation.frames, animation.loopCount, orientation, sourceSize, animation.issues)
            }
            // Shrink on load: libwebp scales while decoding, straight to the thumbnail / scale-down size.
            let target = size ?? options.targetSize(for: sourceSize, orientation: orientation)
            if let target {
                try ImageCodingError.checkDimensions(.webp, width: target.width, height: target.height, limit: options.maximumPixelCount)
            }
            do throws(ImageCodingError) {
                let pixels = try WebPStillCodec.decode(bytes, features: features, scaledTo: target)
                return ([ImageFrame(pixels: pixels)], 0, orientation, size == nil ? sourceSize : pixels.size, [])
            } catch where !options.strict {
                let damaged = try WebPDamage.decodeStill(bytes, features: features, scaledTo: target, failure: error)
                let pixels = damaged.pixels
                return ([ImageFrame(pixels: pixels)], 0, orientation, size == nil ? sourceSize : pixels.size, damaged.issue.map { [$0] } ?? [])
            }
        }
        let image = options.makeImage(
            frames: decoded.frames, format: .webp, orientation: decoded.orientation, loopCount: decoded.loopCount,
            data: data, sourceSize: decoded.sourceSize, issues: decoded.issues
        )
        return ColorManagement.finish(image, profile: EmbeddedColorProfile.webp(data), options: options)
    }

    /// Whether `format` is WebP, the only format this coder writes.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .webp
    }

    /// Encodes a still image, or an animation when the image has several frames (unless `firstFrameOnly`).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard format == .webp else {
            throw ImageCodingError(.encodingFailed, format: format, "WebPCoder writes only WebP, not \(format.displayName)")
        }
        let data = if image.frames.count > 1, !options.firstFrameOnly {
            try WebPAnimationCodec.encode(image.frames, loopCount: image.loopCount, options: options)
        } else {
            try WebPStillCodec.encode(image.pixels, options: options)
        }
        let exif = MetadataEmbedding.exif(for: image)
            ?? (image.orientation != .up ? Data(WebPContainer.exifOrientationBlock(image.orientation)) : nil)
        var chunks: [(type: String, payload: Data)] = []
        if let profile = image.iccProfile { chunks.append(("ICCP", profile)) }
        if let exif { chunks.append(("EXIF", exif)) }
        if let xmp = image.metadata?.xmp { chunks.append(("XMP ", xmp)) }
        return try WebPStillCodec.addingChunks(chunks, to: data)
    }

    /// Reads the RIFF container and checks a `VP8X` canvas against the pixel limit, before libwebp sees the data.
    static func container(of data: Data, options: ImageDecodingOptions) throws(ImageCodingError) -> WebPContainer {
        let container = try WebPContainer(data)
        if let canvas = container.canvasSize {
            try ImageCodingError.checkDimensions(.webp, width: canvas.width, height: canvas.height, limit: options.maximumPixelCount)
        }
        return container
    }

    /// libwebp's view of the bitstream, checked against the pixel limit, and the EXIF orientation.
    static func header(
        _ bytes: UnsafeRawBufferPointer, container: WebPContainer, options: ImageDecodingOptions
    ) throws(ImageCodingError) -> (features: WebPFeatures, orientation: ImageOrientation) {
        let features = try WebPStillCodec.features(bytes)
        try ImageCodingError.checkDimensions(.webp, width: features.width, height: features.height, limit: options.maximumPixelCount)
        return (features, container.hasEXIF ? WebPStillCodec.exifOrientation(bytes) ?? .up : .up)
    }

    /// Runs `body` on the bytes of `data` with a typed error (`Data.withUnsafeBytes` only rethrows untyped).
    func withBytes<R>(
        of data: Data, _ body: (UnsafeRawBufferPointer) throws(ImageCodingError) -> R
    ) throws(ImageCodingError) -> R {
        let result: Result<R, ImageCodingError> = data.withUnsafeBytes { bytes in
            do throws(ImageCodingError) {
                return .success(try body(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
