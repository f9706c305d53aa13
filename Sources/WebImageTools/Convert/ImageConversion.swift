package import Foundation
package import WebImageKit

/// How `webimage convert` turns one image into another.
package struct ConversionSettings: Sendable {
    /// Quality and lossless mode of the output.
    package var encoding = ImageEncodingOptions()
    /// Thumbnail, orientation and pixel limit of the decode; pixels are turned upright by default.
    package var decoding = ImageDecodingOptions(applyOrientation: true)
    /// Applied after decoding, before encoding.
    package var transformer: (any ImageTransforming)?
    /// What transparent pixels become in a format without alpha.
    package var background: RGBA = .white
    /// The frame (1-based) of an animation to write; `nil` keeps every frame the output format can hold.
    package var frame: Int?
    /// Whether an existing output file may be replaced.
    package var replacesExisting = false
    /// What happens to the input's metadata.
    package var metadata = MetadataPolicy.keep

    /// What `convert` does with metadata.
    package enum MetadataPolicy: Sendable {
        /// Keep only the EXIF orientation, when the pixels are kept as stored with `--no-auto-orient` (the default).
        case keep
        /// Keep the input's EXIF, XMP, IPTC and ICC profile where the output format holds them (the EXIF
        /// orientation rewritten to match the pixels), and say on standard error what it cannot hold.
        case keepAndReport
        /// Write no metadata: not even the orientation tag.
        case strip
    }

    /// Creates the defaults of `webimage convert`.
    package init() {}
}

/// One image converted: the decode, frame choice, transform, alpha flattening and encode of `convert`,
/// without touching any file.
package struct ImageConversion {
    /// The image as encoded.
    package var image: Image
    /// The encoded bytes.
    package var data: Data
    /// Things the person should know that are not errors, such as the frame chosen from an animation.
    package var notes: [String]

    /// Converts `input` (encoded bytes) to `format`. Throws ``ToolError`` for what the settings cannot do
    /// with this image, and the library's errors for data it cannot decode, transform or encode.
    package init(
        _ input: Data, to format: ImageFormat, settings: ConversionSettings, coders: ImageCodersManager = .shared
    ) throws {
        try Self.checkWritable(format, settings: settings, coders: coders)
        let (decoded, notes) = try Self.decode(input, for: format, settings: settings, coders: coders)
        var image = decoded
        if let transformer = settings.transformer { image = try transformer.transform(image) }
        if !format.holdsAlpha { image = image.flattened(onto: settings.background) }
        if settings.metadata == .strip, image.orientation != .up {
            image = Image(frames: image.frames, format: image.format, scale: image.scale, loopCount: image.loopCount)
        }
        if settings.metadata == .keepAndReport {
            image = image.with(iccProfile: .some(decoded.iccProfile), metadata: .some(decoded.metadata))
            if !Self.profileFormats.contains(format) { image = image.convertedToSRGB() }
        }
        self.image = image
        self.notes = notes + (settings.metadata == .keepAndReport ? Self.uncarriedMetadata(of: decoded, in: input, as: format) : [])
        data = try coders.encode(image, as: format, options: settings.encoding)
    }

    /// The formats whose encoders embed an ICC profile.
    static let profileFormats: Set<ImageFormat> = [.jpeg, .png, .webp, .avif, .tiff]
    /// The blocks each format's encoder writes.
    static let exifFormats: Set<ImageFormat> = [.jpeg, .png, .webp, .avif, .heic]
    static let xmpFormats: Set<ImageFormat> = [.jpeg, .png, .webp, .avif, .heic, .tiff]

    /// A note naming the metadata of `decoded` (read from `input`) that `format` cannot hold, so it is not kept.
    static func uncarriedMetadata(of decoded: Image, in input: Data, as format: ImageFormat) -> [String] {
        var lost: [String] = []
        if decoded.iccProfile != nil, !profileFormats.contains(format) {
            let name = ImageDetails(input, format: ImageFormat(detecting: input)).colourProfile ?? "embedded"
            lost.append("the colour profile \(name) (the pixels were converted to sRGB)")
        }
        if decoded.metadata?.exif != nil, !exifFormats.contains(format) { lost.append("EXIF") }
        if decoded.metadata?.xmp != nil, !xmpFormats.contains(format) { lost.append("XMP") }
        if decoded.metadata?.iptc != nil, format != .jpeg { lost.append("IPTC") }
        guard !lost.isEmpty else { return [] }
        return ["has metadata \(format.displayName) cannot hold, so it is not kept: " + lost.joined(separator: ", ")]
    }

    /// Throws unless `format` can be written with these settings.
    package static func checkWritable(_ format: ImageFormat, settings: ConversionSettings, coders: ImageCodersManager = .shared) throws(ToolError) {
        guard format != .unknown, coders.canEncode(to: format) else {
            throw ToolError(nil, "cannot write \(format == .unknown ? "this format" : format.displayName)",
                            remedy: "use jpg, png, gif, webp, avif, jxl, heic, tiff, bmp or ico")
        }
        if settings.encoding.lossless, !format.acceptsLossless {
            throw ToolError(nil, "\(format.displayName) has no lossless mode", remedy: "drop --lossless, or write png, webp, avif or jxl")
        }
    }

    /// Decodes every frame, or one: the frame asked for, or the first when `format` holds no animation
    /// (taken from the animation's frame source, so the other frames are never decoded).
    private static func decode(
        _ input: Data, for format: ImageFormat, settings: ConversionSettings, coders: ImageCodersManager
    ) throws -> (Image, [String]) {
        let oneFrame = settings.frame != nil || !format.holdsAnimation
        // A damaged animation the frame source cannot walk decodes whole below, as far as it goes.
        let source = settings.decoding.strict ? try coders.animatedFrameSource(for: input, options: settings.decoding)
            : try? coders.animatedFrameSource(for: input, options: settings.decoding)
        guard oneFrame, let source = source ?? nil, source.frameCount > 1 else {
            var decoding = settings.decodingFoldingLeadingResize
            decoding.firstFrameOnly = oneFrame
            decoding.keepsMetadata = settings.metadata == .keepAndReport
            decoding.keepsColorProfile = settings.metadata == .keepAndReport
            let image = try coders.decode(input, options: decoding)
            if let frame = settings.frame, frame > 1 {
                throw ToolError(nil, "is a still image, it has no frame \(frame)", remedy: "leave out --frame")
            }
            let damage = image.issues.isEmpty ? [] : [
                "is damaged (\(image.issues.oneLine)); what decodes was written, as a browser shows it (--strict refuses it)",
            ]
            return (image, damage)
        }
        let frame = settings.frame ?? 1
        guard frame <= source.frameCount else {
            throw ToolError(nil, "has \(source.frameCount) frames, no frame \(frame)", remedy: "pass --frame 1 to \(source.frameCount)")
        }
        let image = Image(pixels: try source.frame(at: frame - 1), format: ImageFormat(detecting: input), orientation: source.orientation)
        let notes = settings.frame != nil ? [] : [
            "is animated (\(source.frameCount) frames) and \(format.displayName) holds one, so frame 1 was written; choose another with --frame N",
        ]
        return (image, notes)
    }
}
