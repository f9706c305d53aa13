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

    /// What `convert` does with metadata. The library writes one piece of it, the EXIF orientation (JPEG
    /// and AVIF, when the pixels are kept as stored with `--no-auto-orient`); ICC profiles, EXIF camera and
    /// date, and XMP are never written.
    package enum MetadataPolicy: Sendable {
        /// Keep what the library can write (the default).
        case keep
        /// Keep what the library can write, and say on standard error what the input had that it cannot.
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
        self.image = image
        self.notes = notes + (settings.metadata == .keepAndReport ? Self.uncarriedMetadata(in: input) : [])
        data = try coders.encode(image, as: format, options: settings.encoding)
    }

    /// A note naming the metadata of `input` that no encoder writes (ICC profile, EXIF camera and date).
    static func uncarriedMetadata(in input: Data) -> [String] {
        let details = ImageDetails(input, format: ImageFormat(detecting: input))
        var lost: [String] = []
        if let profile = details.colourProfile, profile != "sRGB" { lost.append("the colour profile \(profile)") }
        if let camera = details.exif?.camera { lost.append("the camera (\(camera))") }
        if let taken = details.exif?.taken { lost.append("the date taken (\(taken))") }
        guard !lost.isEmpty else { return [] }
        return ["has metadata WebImageKit cannot write, so it is not kept: " + lost.joined(separator: ", ")
                + "; only the orientation is carried over"]
    }

    /// Throws unless `format` can be written with these settings.
    package static func checkWritable(_ format: ImageFormat, settings: ConversionSettings, coders: ImageCodersManager = .shared) throws(ToolError) {
        guard format != .unknown, coders.canEncode(to: format) else {
            throw ToolError(nil, "cannot write \(format == .unknown ? "this format" : format.displayName)",
                            remedy: "use jpg, png, gif, webp, avif, jxl or heic")
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
        guard oneFrame, let source = try coders.animatedFrameSource(for: input, options: settings.decoding),
              source.frameCount > 1 else {
            var decoding = settings.decodingFoldingLeadingResize
            decoding.firstFrameOnly = oneFrame
            let image = try coders.decode(input, options: decoding)
            if let frame = settings.frame, frame > 1 {
                throw ToolError(nil, "is a still image, it has no frame \(frame)", remedy: "leave out --frame")
            }
            return (image, [])
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
