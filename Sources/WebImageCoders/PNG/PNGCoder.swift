public import Foundation
public import WebImageCore

/// Decodes and encodes PNG through libpng: every colour type and bit depth, tRNS and Adam7 on read,
/// 8-bit RGB or RGBA on write.
///
/// With a thumbnail size or a scale-down limit that makes a still, non-interlaced image smaller, rows
/// are decoded one band at a time and resampled as they come, so the full-size pixels never exist; an
/// interlaced (Adam7) image is decoded whole first, since its rows are complete only after the last pass.
///
/// Decoded pixels are 8-bit RGBA with straight alpha: palettes and grey are expanded, 16-bit samples
/// are scaled as `round(v / 257)`, a tRNS chunk becomes alpha. An `iCCP` profile converts the pixels to
/// sRGB (or is kept in `Image.iccProfile` with `ImageDecodingOptions.keepsColorProfile`, and written back
/// on encoding); an `sRGB` chunk needs no work, and `gAMA` or `cHRM` without a profile are left alone,
/// sample values taken as sRGB (as libvips does). The
/// orientation comes from an `eXIf` chunk when there is one. An animated PNG (APNG: an `acTL` chunk
/// before the image data) decodes to its frames composited onto the full canvas, with
/// `Image.loopCount` the `acTL`'s `num_plays` (0 meaning forever); see `APNGDecoder` for the
/// rules. A plain PNG is a still image. Encoding writes the first frame only, as a still PNG.
///
/// ```swift
/// let coder = PNGCoder()
/// let image = try coder.decode(pngData)
/// let data = try coder.encode(image, as: .png)
/// ```
public struct PNGCoder: ImageCoding {
    /// The zlib level the encoder uses, with libpng's adaptive row filters. Level 3 (zlib's fast
    /// deflate) measured 2.7× faster than level 6 on an 800×600 photo-like image for an 11% larger
    /// file, which is still half the size libvips writes by default (level 6, no filters).
    static let compressionLevel: Int32 = 3

    /// Creates a PNG coder.
    public init() {}

    /// Whether the data starts with the PNG signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .png
    }

    /// Decodes a PNG into an 8-bit RGBA image; throws `ImageCodingError` for oversized data, a broken header or no
    /// decodable rows, and (with `ImageDecodingOptions.strict`) for any damage. Otherwise damage is let pass as
    /// browsers do (bad checksums ignored, rows after broken data transparent) and listed in `Image.issues`.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        if APNGChunkReader.isAnimated(data), let animation = try APNGDecoder.decode(data, options: options) {
            let image = options.makeImage(
                frames: animation.frames, format: .png, orientation: animation.orientation,
                loopCount: animation.loopCount, data: data, issues: animation.issues
            )
            return ColorManagement.finish(
                image, profile: EmbeddedColorProfile.png(data), sourceIsGray: EmbeddedColorProfile.pngIsGray(data), options: options
            )
        }
        return try decodeStill(data, options: options)
    }

    /// Decodes a still PNG; with `fileDescriptor`, `data` is the file's start, at least up to its first `IDAT`
    /// (so it holds the header chunks and any profile), and the rest is read from the descriptor as rows are decoded.
    ///
    /// Unless strict, an Adam7 image broken before its last pass (in memory, not read on from a file) shows the
    /// passes decoded before the damage, as browsers show it (``LibPNG/decodeInterlacedPartially(_:maximumPixelCount:failure:)``).
    func decodeStill(_ data: Data, readingOnFrom fileDescriptor: Int32? = nil, options: ImageDecodingOptions) throws -> Image {
        let decoded: LibPNG.Decoded
        do {
            decoded = try LibPNG.decode(
                data, readingOnFrom: fileDescriptor, maximumPixelCount: options.maximumPixelCount, strict: options.strict
            ) { size, orientation in options.targetSize(for: size, orientation: orientation) }
        } catch let error as ImageCodingError where !options.strict && fileDescriptor == nil && [.corruptData, .truncatedData].contains(error.code) {
            var partial = try LibPNG.decodeInterlacedPartially(data, maximumPixelCount: options.maximumPixelCount, failure: error)
            partial.orientation = APNGChunkReader.exifOrientation(data)
            decoded = partial
        }
        let image = options.makeImage(
            frames: [ImageFrame(pixels: decoded.pixels)], format: .png, orientation: decoded.orientation, data: data,
            sourceSize: decoded.storedSize, issues: decoded.issues
        )
        return ColorManagement.finish(
            image, profile: EmbeddedColorProfile.png(data), sourceIsGray: EmbeddedColorProfile.pngIsGray(data), options: options
        )
    }

    /// Whether `format` is PNG.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .png
    }

    /// Encodes the first frame as an 8-bit PNG: RGBA when it has alpha, RGB otherwise (zlib level 3, adaptive
    /// filters); a palette image with `ImageEncodingOptions.paletteColors`, Adam7-interlaced with
    /// `ImageEncodingOptions.progressive`. The image's profile, EXIF and XMP are written as `iCCP`, `eXIf` and `iTXt`.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard canEncode(to: format) else {
            throw ImageCodingError(.encodingFailed, format: format, "PNGCoder cannot encode \(format.displayName)")
        }
        let pixels = image.pixels
        let palette = try options.paletteColors.map { try GIFPalette.index(pixels, maximumColors: $0) }
        var data = try LibPNG.encode(
            pixels, keepsAlpha: pixels.hasAlpha, compressionLevel: Self.compressionLevel, interlaced: options.progressive,
            palette: palette)
        if let metadata = image.metadata {
            data = MetadataEmbedding.png(data, exif: MetadataEmbedding.exif(for: image), xmp: metadata.xmp)
        }
        return image.iccProfile.map { ICCEmbedding.png(data, profile: $0) } ?? data
    }
}
