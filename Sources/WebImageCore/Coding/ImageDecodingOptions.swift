public import Foundation

/// How a decoder should decode: what to keep, what to check, and which limits to enforce.
///
/// Every field has a safe default, so `ImageDecodingOptions()` is what most callers want.
public struct ImageDecodingOptions: Hashable, Sendable {
    /// The default maximum pixel count: 100 megapixels (400 MB of RGBA).
    public static let defaultMaximumPixelCount = 100_000_000
    /// The seeds' scale-down budget: 60 MB of RGBA, 15,728,640 pixels.
    public static let defaultScaleDownLimitBytes = 60 * 1024 * 1024

    /// Decode only the first frame of an animation, as a still image.
    public var firstFrameOnly: Bool
    /// The display scale to give the image (2 for `@2x`); `nil` keeps 1. Use ``imageScale(forKey:)`` to derive it from a key.
    public var scale: Double?
    /// Turn the pixels upright according to the file's orientation tag; the result then reports `.up`.
    public var applyOrientation: Bool
    /// The largest `width × height` accepted, checked from the header before any pixel memory is allocated.
    /// A larger image fails with ``ImageCodingError/Code/imageTooLarge``.
    public var maximumPixelCount: Int
    /// The most memory all decoded frames of an animation may take together, in bytes (default 512 MiB).
    /// An animation over it fails with ``ImageCodingError/Code/animationTooLarge``, or, with
    /// ``firstFrameWhenAnimationTooLarge``, decodes as its first frame only.
    public var maximumAnimationByteCount: Int
    /// Decode only the first frame (instead of failing) when an animation exceeds ``maximumAnimationByteCount``.
    public var firstFrameWhenAnimationTooLarge: Bool
    /// How a thumbnail meets its ``thumbnailPixelSize``.
    public enum ThumbnailMode: String, Sendable, Hashable, CaseIterable {
        /// Keep the aspect ratio and fit inside the size (SDWebImage's `preserveAspectRatio`, the default).
        case fit
        /// Keep the aspect ratio and cover the size: the smallest such image at least as wide and as tall,
        /// for a crop to follow.
        case fill
        /// Stretch to the size exactly (SDWebImage's `preserveAspectRatio == false`).
        case stretch
    }

    /// Decode a thumbnail of this size instead of the full image (SDWebImage's thumbnail pixel size), fitted,
    /// covering or stretched as ``thumbnailMode`` says. Images already smaller are not enlarged. JPEG, WebP and
    /// non-interlaced PNG shrink while decoding, so a thumbnail of a huge image never holds the full-size pixels.
    public var thumbnailPixelSize: PixelSize?
    /// How the thumbnail meets ``thumbnailPixelSize``; default ``ThumbnailMode/fit``.
    public var thumbnailMode: ThumbnailMode
    /// The largest `width × height` the file's header may declare, even when a thumbnail or scale-down would
    /// decode fewer pixels (an image server's source limit); larger fails with ``ImageCodingError/Code/imageTooLarge``
    /// before decoding. The decoders that shrink while decoding (JPEG, WebP) check it; the others check their
    /// header's size against ``maximumPixelCount``, so set both to bound every format. `nil` (the default): only
    /// ``maximumPixelCount``, which bounds what is decoded.
    public var maximumSourcePixelCount: Int?
    /// Scale down images whose decoded pixels would take more than this many bytes, keeping the aspect
    /// ratio (the seeds' ScaleDownLargeImages; ``defaultScaleDownLimitBytes`` is their 60 MB). `nil`: never.
    /// JPEG and non-interlaced PNG are scaled down while decoding, in bands, like thumbnails.
    public var scaleDownLimitBytes: Int?
    /// Keep the encoded bytes in ``Image/data`` (for re-storing the original without re-encoding).
    public var keepsData: Bool
    /// Keep the pixels in the colour space of the file's embedded ICC profile and hand the profile in
    /// ``Image/iccProfile``, instead of converting them to sRGB (the default, as browsers and ImageIO do).
    ///
    /// Profiles embedded in JPEG (APP2), PNG (`iCCP`), WebP (`ICCP`), AVIF (`colr`) and TIFF are
    /// converted through lcms2; an sRGB profile, PNG's `sRGB` chunk and a file without a profile
    /// cost nothing. PNG `gAMA` and `cHRM` chunks without a profile are left alone, as libvips does.
    /// A CMYK JPEG or TIFF is always converted to RGB; with this option its profile is not applied.
    public var keepsColorProfile: Bool
    /// Decode the thumbnail stored in the file instead of the main image, whatever its size, when the file has
    /// one (HEIC `thmb` items; the largest when there are several): the thumbnail is then the image, and
    /// ``thumbnailPixelSize`` applies to it. An image server's `enforce_thumbnail`. Other formats ignore it.
    public var prefersEmbeddedThumbnail: Bool
    /// Keep the file's EXIF, XMP and IPTC blocks in ``Image/metadata`` (JPEG, PNG, WebP, AVIF, HEIC).
    /// Off by default: most callers only show the pixels, and metadata may carry location and names.
    public var keepsMetadata: Bool
    /// Refuse damaged files (throw ``ImageCodingError``) instead of decoding what is there. Off by default:
    /// like a browser, a JPEG cut short, a PNG with a bad checksum or a broken row, or a GIF with a bad record
    /// decodes as far as it goes, and ``Image/issues`` says what was wrong. Every raster coder honours it (what each
    /// format shows of a damaged file: docs/LIBRARY.md, "Damaged images").
    public var strict: Bool

    /// Creates options; the defaults decode every frame, keep the stored orientation, convert to sRGB and allow 100 megapixels.
    public init(
        firstFrameOnly: Bool = false,
        scale: Double? = nil,
        applyOrientation: Bool = false,
        maximumPixelCount: Int = ImageDecodingOptions.defaultMaximumPixelCount,
        maximumAnimationByteCount: Int = 512 << 20,
        firstFrameWhenAnimationTooLarge: Bool = false,
        thumbnailPixelSize: PixelSize? = nil,
        thumbnailMode: ThumbnailMode = .fit,
        maximumSourcePixelCount: Int? = nil,
        scaleDownLimitBytes: Int? = nil,
        keepsData: Bool = false,
        keepsColorProfile: Bool = false,
        prefersEmbeddedThumbnail: Bool = false,
        keepsMetadata: Bool = false,
        strict: Bool = false
    ) {
        self.firstFrameOnly = firstFrameOnly
        self.scale = scale
        self.applyOrientation = applyOrientation
        self.maximumPixelCount = maximumPixelCount
        self.maximumAnimationByteCount = maximumAnimationByteCount
        self.firstFrameWhenAnimationTooLarge = firstFrameWhenAnimationTooLarge
        self.thumbnailPixelSize = thumbnailPixelSize
        self.thumbnailMode = thumbnailMode
        self.maximumSourcePixelCount = maximumSourcePixelCount
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.keepsData = keepsData
        self.keepsColorProfile = keepsColorProfile
        self.prefersEmbeddedThumbnail = prefersEmbeddedThumbnail
        self.keepsMetadata = keepsMetadata
        self.strict = strict
    }
}

extension ImageDecodingOptions {
    /// Whether these options decode the whole image: every frame, at full size. A reduced decode (first
    /// frame, thumbnail, embedded thumbnail) must not be cached under the key of the full image. A scale-down counts as whole,
    /// as in SDWebImage: it changes only images too large to keep in memory anyway.
    public var decodesFullImage: Bool {
        !firstFrameOnly && thumbnailPixelSize == nil && !prefersEmbeddedThumbnail
    }

    /// The size a decoded image of `size` must end up at under ``thumbnailPixelSize`` and
    /// ``scaleDownLimitBytes``, or `nil` when it stays as it is. Never larger than `size`.
    ///
    /// `size` is the stored size; when `orientation` turns the image a quarter turn, the thumbnail
    /// bounds apply to the upright image (a 300×200 box holds a portrait photo stored landscape upright).
    public func targetSize(for size: PixelSize, orientation: ImageOrientation = .up) -> PixelSize? {
        var target = size
        let thumbnailPixelSize = orientation.swapsDimensions
            ? self.thumbnailPixelSize.map { PixelSize(width: $0.height, height: $0.width) } : self.thumbnailPixelSize
        if let bounds = thumbnailPixelSize, bounds.width > 0, bounds.height > 0,
           size.width > bounds.width || size.height > bounds.height {
            switch thumbnailMode {
            case .fit: target = Resampler.aspectFitSize(size, in: bounds)
            case .fill: target = Self.coveringSize(size, box: bounds)
            case .stretch: target = PixelSize(width: min(bounds.width, size.width), height: min(bounds.height, size.height))
            }
        }
        if let limit = scaleDownLimitBytes, limit > 0, target.pixelCount * PixelBuffer.bytesPerPixel > limit {
            let ratio = (Double(limit / PixelBuffer.bytesPerPixel) / Double(target.pixelCount)).squareRoot()
            target = PixelSize(width: max(1, Int(Double(target.width) * ratio)), height: max(1, Int(Double(target.height) * ratio)))
        }
        return target == size ? nil : target
    }

    /// The smallest size of `size`'s aspect ratio that covers `box`, never larger than `size`.
    static func coveringSize(_ size: PixelSize, box: PixelSize) -> PixelSize {
        let scale = max(Double(box.width) / Double(size.width), Double(box.height) / Double(size.height))
        guard scale < 1 else { return size }
        return PixelSize(
            width: min(size.width, max(box.width, Int((Double(size.width) * scale).rounded(.up)))),
            height: min(size.height, max(box.height, Int((Double(size.height) * scale).rounded(.up)))))
    }

    /// Throws ``ImageCodingError/Code/imageTooLarge`` when the stored `size` passes ``maximumSourcePixelCount``:
    /// for decoders that shrink while decoding, which otherwise check only what they decode.
    public func checkSourceSize(_ size: PixelSize, format: ImageFormat) throws(ImageCodingError) {
        guard let limit = maximumSourcePixelCount else { return }
        try ImageCodingError.checkDimensions(format, width: size.width, height: size.height, limit: limit)
    }

    /// Builds the ``Image`` a decoder returns, applying the options every decoder shares: the
    /// thumbnail and scale-down size (resampling frames that are still larger), ``scale``,
    /// ``applyOrientation``, ``keepsData`` and ``keepsMetadata`` (the blocks read from `data`); `issues` is what
    /// a lenient decode found wrong.
    ///
    /// `sourceSize` is the size stored in the file, when a decoder already shrank while decoding
    /// (JPEG DCT scaling, WebP scaled decode): the target is computed from it, so the result is the
    /// same whichever way the pixels were reduced.
    public func makeImage(
        frames: [ImageFrame], format: ImageFormat, orientation: ImageOrientation = .up,
        loopCount: Int = 0, data: Data, sourceSize: PixelSize? = nil, issues: [DecodingIssue] = []
    ) -> Image {
        var frames = frames
        let decodedSize = frames[0].pixels.size
        var issues = issues
        if let target = targetSize(for: sourceSize ?? decodedSize, orientation: orientation), target != decodedSize {
            frames = frames.map { ImageFrame(pixels: Resampler.resize($0.pixels, to: target), duration: $0.duration) }
            issues = issues.map { $0.scalingRows(from: decodedSize.height, to: target.height) }
        }
        let image = Image(
            frames: frames, format: format, scale: scale ?? 1, orientation: orientation,
            loopCount: loopCount, data: keepsData ? data : nil,
            metadata: keepsMetadata ? ImageMetadata(reading: data, format: format) : nil,
            issues: issues
        )
        return applyOrientation ? image.normalizedOrientation() : image
    }
}
