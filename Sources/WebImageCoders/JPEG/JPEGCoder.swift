public import Foundation

/// Decodes and encodes JPEG through libjpeg-turbo.
///
/// Decoding handles baseline, progressive, arithmetic-coded and restart-interval files in
/// greyscale, YCbCr, RGB, CMYK and YCCK, always into opaque RGBA (JPEG has no alpha). The EXIF
/// orientation is reported (or applied, with `ImageDecodingOptions.applyOrientation`). An ICC profile
/// in APP2 markers converts the pixels to sRGB (CMYK files included), unless
/// `ImageDecodingOptions.keepsColorProfile` asks to keep it; encoding writes `Image.iccProfile` back as APP2.
/// ``decode(_:options:scale:)`` shrinks by 1/2, 1/4 or 1/8 inside the DCT, which is much cheaper
/// than decoding at full size and resampling; thumbnails and scale-down decode at any `M`/8 and
/// resample the rows as they come out, in bounded memory.
///
/// Encoding writes a baseline JPEG with optimised Huffman tables at
/// `ImageEncodingOptions.qualityPercent`: chroma is subsampled 4:2:0 below quality 90 and kept
/// at full resolution (4:4:4) from 90 up. The alpha channel is ignored (JPEG cannot store it), only
/// the first frame is written, and a non-`.up` orientation is written as an EXIF APP1 segment.
///
/// ```swift
/// let coder = JPEGCoder()
/// let image = try coder.decode(data)
/// let thumbnail = try coder.decode(data, options: ImageDecodingOptions(), scale: .eighth)
/// let jpeg = try coder.encode(image, as: .jpeg, options: ImageEncodingOptions(quality: 0.8))
/// ```
public struct JPEGCoder: ImageCoding {
    /// Creates the coder; it holds no state.
    public init() {}

    /// Whether the data starts with a JPEG signature (`FF D8 FF`).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .jpeg
    }

    /// Decodes into opaque RGBA, reporting the EXIF orientation. With a thumbnail size or a scale-down
    /// limit that makes the image smaller, libjpeg decodes at the smallest `M`/8 scale (1/8 … 8/8) that
    /// still covers the target size and its rows are resampled to the exact size band by band as they
    /// come out, so neither the full-size pixels nor a full-height intermediate ever exist.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard options.thumbnailPixelSize != nil || options.scaleDownLimitBytes != nil else {
            return try decode(data, options: options, scale: .full)
        }
        let header = try info(of: data)
        let orientation = ExifOrientationReader.orientation(inJPEG: data) ?? .up
        let profile = data.withUnsafeBytes { EmbeddedColorProfile.jpeg($0) }
        // A CMYK file with a profile converts through it whole (the streaming path converts CMYK naively).
        let convertsCMYK = profile != nil && (header.colorSpace == .cmyk || header.colorSpace == .ycck)
        guard !convertsCMYK, let target = options.targetSize(for: header.size, orientation: orientation) else {
            return try decode(data, options: options, scale: .full)
        }
        let image: Image
        do {
            image = try decodeScaledDown(data, storedSize: header.size, to: target, orientation: orientation, options: options)
        } catch let error as ImageCodingError where header.isProgressive && !options.strict && error.code == .corruptData {
            // Streaming reads a progressive file's scans in one go and cannot show those before a marker the data
            // ends inside; the whole decode can (a damaged file, decoded whole as the other progressive ones are).
            return try decode(data, options: options, scale: .full)
        }
        return ColorManagement.finish(image, profile: profile, sourceIsGray: header.colorSpace == .gray, options: options)
    }

    /// Decodes at 1/`scale` of the stored size (each side rounded up), scaling inside the DCT.
    ///
    /// `ImageDecodingOptions.maximumPixelCount` limits the decoded (scaled) size.
    public func decode(_ data: Data, options: ImageDecodingOptions, scale: DCTScale) throws -> Image {
        let (pixels, orientation, storedSize, profile, info, issue) = try data.withUnsafeBytes { bytes in
            let info = try LibJPEG.header(of: bytes, scale: scale)
            try options.checkSourceSize(info.size, format: .jpeg)
            try ImageCodingError.checkDimensions(
                .jpeg, width: info.outputSize.width, height: info.outputSize.height, limit: options.maximumPixelCount
            )
            let profile = EmbeddedColorProfile.jpeg(bytes)
            // A CMYK file with a profile converts through it (and its profile is then used up).
            if let profile, let converted = try Self.decodeCMYK(bytes, info: info, profile: profile, scale: scale, options: options) {
                return (converted.pixels, ExifOrientationReader.orientation(inJPEG: bytes) ?? .up, info.size, Data?.none, info,
                        converted.issue)
            }
            var issue: DecodingIssue?
            let pixels = try PixelBuffer(
                width: info.outputSize.width, height: info.outputSize.height, hasAlpha: false
            ) { output throws(ImageCodingError) in
                issue = try LibJPEG.decode(
                    bytes, scale: scale, into: output, size: info.outputSize,
                    maximumWorkingMemory: Self.workingMemoryLimit(options: options), strict: options.strict
                )
            }
            // A CMYK profile on naively converted pixels is dropped: they are RGB now.
            let isCMYK = info.colorSpace == .cmyk || info.colorSpace == .ycck
            return (pixels, ExifOrientationReader.orientation(inJPEG: bytes) ?? .up, info.size, isCMYK ? nil : profile, info, issue)
        }
        let image = options.makeImage(
            frames: [ImageFrame(pixels: pixels)], format: .jpeg, orientation: orientation, data: data, sourceSize: storedSize,
            issues: issue.map { [$0] } ?? []
        )
        return ColorManagement.finish(image, profile: profile, sourceIsGray: info.colorSpace == .gray, options: options)
    }

    /// What the header declares, without decoding any pixels; `outputSize` is the size at `scale`.
    public func info(of data: Data, scale: DCTScale = .full) throws -> Info {
        try data.withUnsafeBytes { bytes in try LibJPEG.header(of: bytes, scale: scale) }
    }

    /// Whether `format` is `.jpeg`, the only format this coder writes.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .jpeg
    }

    /// Encodes the first frame as a baseline JPEG, ignoring alpha; see the type's documentation.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard format == .jpeg else {
            throw ImageCodingError(.unsupportedFormat, format: format, "JPEGCoder only writes JPEG")
        }
        // Only the first frame: JPEG has no animation. Alpha is dropped. The image's own EXIF block, when it has
        // one, replaces the encoder's orientation-only block.
        let exif = MetadataEmbedding.exif(for: image)
        var data = try LibJPEG.encode(
            image.pixels, quality: options.qualityPercent, progressive: options.progressive,
            orientation: exif == nil ? image.orientation : .up)
        if let metadata = image.metadata {
            data = MetadataEmbedding.jpeg(data, exif: exif, xmp: metadata.xmp, iptc: metadata.iptc)
        }
        return image.iccProfile.map { ICCEmbedding.jpeg(data, profile: $0) } ?? data
    }

    /// libjpeg's working-memory cap: 8 bytes per pixel of `ImageDecodingOptions.maximumPixelCount`,
    /// whatever the output scale. Baseline files stream in a few rows of memory, but progressive and
    /// multi-scan files keep every DCT coefficient of the full-size image (3 bytes per pixel at 4:2:0,
    /// 6 at 4:4:4) even for a 1/8 decode; past the cap decoding fails with `.imageTooLarge`.
    static func workingMemoryLimit(options: ImageDecodingOptions) -> Int {
        let (limit, overflow) = max(options.maximumPixelCount, 0).multipliedReportingOverflow(by: 8)
        return overflow ? Int.max : max(limit, 1)
    }
}
