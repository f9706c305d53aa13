public import Foundation
public import WebImageCore

/// Decodes TIFF through libtiff: strips and tiles, 1- to 16-bit samples, bilevel, grey, palette, RGB,
/// YCbCr, CMYK, separate planes, associated and unassociated alpha, and every compression libtiff was
/// built with (none, LZW, Deflate, PackBits, JPEG, CCITT…).
///
/// The file is read from memory (no file access). Each page's size is checked against
/// `ImageDecodingOptions.maximumPixelCount` before its pixels are allocated. The orientation tag is
/// reported as `Image.orientation` (applied with `ImageDecodingOptions.applyOrientation`), as for
/// JPEG's EXIF orientation. An ICC profile tag converts the pixels to sRGB (8-bit CMYK through its
/// inks), unless `ImageDecodingOptions.keepsColorProfile` keeps it in `Image.iccProfile`. Pages become
/// frames (only the first with `ImageDecodingOptions.firstFrameOnly`); pages of another size than the
/// first and reduced-resolution subfiles (thumbnails, pyramid levels) are skipped, since an image's
/// frames share one size. This coder does not encode.
///
/// ```swift
/// let image = try TIFFCoder().decode(data)
/// ```
public struct TIFFCoder: ImageCoding {
    /// Creates the coder; it holds no state.
    public init() {}

    /// Whether the data starts with a TIFF header (`II*\0` or `MM\0*`, classic or BigTIFF).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .tiff
    }

    /// Decodes the first page, or every page of the first page's size; see the type's documentation.
    ///
    /// Unless `ImageDecodingOptions.strict`, damage is let pass (issue 31; browsers do not show TIFF, so the rule
    /// is "decode what libtiff can"): strips or tiles libtiff cannot decode are transparent, a page after the
    /// first that does not decode ends the frames, and what libtiff reported is in `Image.issues`. A cut first
    /// directory, or a first page with no decodable block, is still refused.
    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        // libtiff's largest single allocation: a strip or tile of 16-bit RGBA samples of the largest allowed page.
        let allocationLimit = max(options.maximumPixelCount, 1).multipliedReportingOverflow(by: 8)
        let maximumAllocation = allocationLimit.overflow ? Int.max : allocationLimit.partialValue
        let decoded = try data.withUnsafeBytes { bytes throws(ImageCodingError) -> DecodedPages in
            guard Self.firstDirectoryIsComplete(bytes) else {
                throw ImageCodingError(.truncatedData, format: .tiff, "the data ends inside the first TIFF directory")
            }
            return try LibTIFF.withFile(bytes, maximumAllocation: maximumAllocation) { tiff, file throws(ImageCodingError) in
                var decoded = DecodedPages()
                try Self.readPages(tiff, file: file, options: options, maximumAllocation: maximumAllocation, into: &decoded)
                if options.strict {
                    try LibTIFF.checkNoErrors(file)
                } else if decoded.issues.isEmpty, !file.errors.isEmpty || !file.readWarnings.isEmpty {
                    // Reported along the way without costing a pixel (a cut link to the next page, a tag cut off).
                    let reported = LibTIFF.error(file, fallback: "libtiff reported an error")
                    decoded.issues.append(DecodingIssue(reported.code == .truncatedData ? .truncated : .corruptData, detail: reported.message))
                }
                return decoded
            }
        }
        guard let first = decoded.pages.first else { throw ImageCodingError(.corruptData, format: .tiff, "the TIFF has no page") }
        let image = options.makeImage(
            frames: decoded.pages.map { ImageFrame(pixels: $0.pixels) }, format: .tiff, orientation: first.orientation, data: data,
            issues: decoded.issues
        )
        return ColorManagement.finish(
            image, profile: first.profileApplied ? nil : first.iccProfile, sourceIsGray: first.isGray, options: options
        )
    }

    /// The pages read, and what a lenient decode let pass.
    struct DecodedPages {
        var pages: [LibTIFF.Page] = []
        var issues: [DecodingIssue] = []
    }

    /// Whether `format` is TIFF.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .tiff
    }

    /// Encodes the first frame as a single-page TIFF; see the type's documentation.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard format == .tiff else {
            throw ImageCodingError(.unsupportedFormat, format: format, "TIFFCoder encodes only TIFF")
        }
        return try LibTIFF.encode(
            image.pixels, orientation: image.orientation, quality: options.qualityPercent, lossless: options.lossless,
            profile: image.iccProfile, xmp: image.metadata?.xmp)
    }

    /// Whether the first directory, up to its link to the next one, lies inside the data (libtiff takes a
    /// missing link for the last directory; here a file cut there is truncated, as one cut anywhere else).
    static func firstDirectoryIsComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 8 else { return false }
        let little = bytes[0] == 0x49
        func integer(_ offset: Int, _ width: Int) -> Int? {
            guard offset >= 0, width <= 8, offset <= bytes.count - width else { return nil }
            let slice = bytes[offset..<(offset + width)]
            return Int(truncatingIfNeeded: (little ? slice.reversed() : Array(slice)).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        let isBig = integer(2, 2) == 43
        guard let directory = isBig ? integer(8, 8) : integer(4, 4),
              let count = isBig ? integer(directory, 8) : integer(directory, 2), count >= 0, count < 1 << 20 else { return false }
        let end = isBig ? directory + 8 + count * 20 + 8 : directory + 2 + count * 12 + 4
        return end <= bytes.count
    }

    private static func readPages(
        _ tiff: LibTIFF.OpenTIFF, file: TIFFMemoryFile, options: ImageDecodingOptions, maximumAllocation: Int,
        into decoded: inout DecodedPages
    ) throws(ImageCodingError) {
        var byteCount = 0
        repeat {
            let header = try LibTIFF.header(tiff)
            if let size = decoded.pages.first?.pixels.size, header.size != size || header.isReducedResolution { continue }
            try ImageCodingError.checkDimensions(.tiff, width: header.size.width, height: header.size.height, limit: options.maximumPixelCount)
            if !decoded.pages.isEmpty {
                byteCount += header.size.pixelCount * PixelBuffer.bytesPerPixel
                if byteCount > options.maximumAnimationByteCount {
                    if options.firstFrameWhenAnimationTooLarge { break }
                    throw ImageCodingError(
                        .animationTooLarge, format: .tiff,
                        "the pages take more than \(options.maximumAnimationByteCount) bytes decoded"
                    )
                }
            } else {
                byteCount = header.size.pixelCount * PixelBuffer.bytesPerPixel
            }
            do {
                decoded.pages.append(try readPage(tiff, file: file, header: header, options: options,
                                                  maximumAllocation: maximumAllocation, issues: &decoded.issues))
            } catch where !options.strict && !decoded.pages.isEmpty {
                decoded.issues.append(DecodingIssue(.framesDropped, detail: "page \(decoded.pages.count + 1) does not decode: \(error.message)"))
                break
            }
        } while !options.firstFrameOnly && LibTIFF.nextPage(tiff)
    }

    private static func readPage(
        _ tiff: LibTIFF.OpenTIFF, file: TIFFMemoryFile, header: LibTIFF.PageHeader, options: ImageDecodingOptions,
        maximumAllocation: Int, issues: inout [DecodingIssue]
    ) throws(ImageCodingError) -> LibTIFF.Page {
        let orientation = LibTIFF.orientation(tiff)
        let isGray = header.photometric == 0 || header.photometric == 1
        // A lenient decode of CMYK inks that do not all read falls back to the RGBA path, which shows what does.
        let errorsBefore = file.errors.count + file.readWarnings.count
        if let profile = header.iccProfile, !options.keepsColorProfile, LittleCMS.space(of: profile) == .cmyk,
           let inks = options.strict ? try LibTIFF.readCMYK(tiff, file: file, header: header)
                                     : (try? LibTIFF.readCMYK(tiff, file: file, header: header)) ?? nil,
           file.errors.count + file.readWarnings.count == errorsBefore || options.strict,
           let pixels = inks.withUnsafeBytes({ raw in
               ColorManagement.rgba(fromCMYK: raw, width: header.size.width, height: header.size.height, profile: profile, inverted: false)
           }) {
            return LibTIFF.Page(pixels: pixels, orientation: orientation, iccProfile: profile, isGray: false, profileApplied: true)
        }
        let pixels = options.strict
            ? try LibTIFF.readRGBA(tiff, file: file, size: header.size)
            : try LibTIFF.readRGBALeniently(tiff, file: file, size: header.size, maximumAllocation: maximumAllocation, issues: &issues)
        // A CMYK profile does not describe the naively converted RGB.
        let profile = header.photometric == 5 ? nil : header.iccProfile
        return LibTIFF.Page(pixels: pixels, orientation: orientation, iccProfile: profile, isGray: isGray, profileApplied: false)
    }
}
