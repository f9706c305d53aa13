public import Foundation

/// Decodes HEIC and HEIF still images through libheif 1.15 (HEVC through libde265).
///
/// Decoding reads the file's primary image, converts any bit depth (8, 10, 12) and chroma layout to
/// 8-bit straight-alpha RGBA, and keeps the alpha plane. libheif applies the `irot`/`imir`/`clap`
/// transforms itself, so a file that has them decodes upright and reports `.up`; a file without them
/// reports its EXIF orientation (the pixels stay as stored), the same rule as ``AVIFCoder``, so an
/// orientation is never applied twice.
///
/// With `ImageDecodingOptions.thumbnailPixelSize`, a thumbnail stored in the file (`thmb`) is
/// decoded instead of the full image when it is at least as large as the requested size; then, as for
/// JPEG's shrink-on-load, `ImageDecodingOptions.maximumPixelCount` limits the thumbnail, not the full image.
///
/// libheif 1.15 has no API for image sequences (`msf1` tracks, added in libheif 1.20): a sequence
/// file decodes as its primary still image.
///
/// Encoding writes one lossy HEVC still image (the first frame) through libheif's x265 plug-in at
/// `ImageEncodingOptions.quality` (libheif's 0–100 scale), with an alpha plane when the pixels have
/// transparency; an orientation other than `.up` is written as `irot`/`imir`, so the file decodes
/// upright (and reports `.up`). `ImageEncodingOptions.lossless` is refused.
///
/// ```swift
/// let image = try HEICCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 320, height: 320)))
/// ```
public struct HEICCoder: ImageCoding {
    /// Creates a coder.
    public init() {}

    public func canDecode(_ data: Data) -> Bool {
        let format = ImageFormat(detecting: data)
        return format == .heic || format == .heif
    }

    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        let format = ImageFormat(detecting: data)
        let decoded = try data.withUnsafeBytes { bytes in
            try Self.checkContainer(bytes, format: format)
            return try LibHEIF.decode(bytes, format: format, options: options)
        }
        let image = options.makeImage(frames: [ImageFrame(pixels: decoded.pixels)], format: format,
                                      orientation: decoded.orientation, data: data, sourceSize: decoded.sourceSize)
        return ColorManagement.finish(image, profile: decoded.iccProfile, options: options)
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        format == .heic
    }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard format == .heic else {
            throw ImageCodingError(.unsupportedFormat, format: format, "HEICCoder encodes only HEIC")
        }
        guard !options.lossless else {
            throw ImageCodingError(.encodingFailed, format: .heic, "HEICCoder writes lossy HEVC only (libheif 1.15 converts RGB to YCbCr)")
        }
        return try LibHEIF.encode(image.frames[0].pixels, orientation: image.orientation, quality: options.qualityPercent,
                                  exif: MetadataEmbedding.exif(for: image), xmp: image.metadata?.xmp)
    }

    /// Rejects data that is not an ISO-BMFF HEIF file or is shorter than its boxes declare, before libheif sees it.
    private static func checkContainer(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws {
        if bytes.count >= 8, !bytes[4..<8].elementsEqual("ftyp".utf8) {
            throw ImageCodingError(.unsupportedFormat, format: .unknown, "the data does not start with an ISO-BMFF 'ftyp' box")
        }
        if bytes.count < 8 || AVIFContainer.isTruncated(bytes) {
            throw ImageCodingError(.truncatedData, format: format == .unknown ? .heic : format,
                                   "the data ends inside a box (\(bytes.count) bytes)")
        }
        guard format == .heic || format == .heif else {
            throw ImageCodingError(.unsupportedFormat, format: format, "the 'ftyp' box does not name a HEIC or HEIF brand")
        }
    }
}
