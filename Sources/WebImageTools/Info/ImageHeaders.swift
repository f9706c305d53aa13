package import Foundation
package import WebImageKit

/// What `webimage info` reads from an image's headers, without decoding its pixels: JPEG (size,
/// orientation), PNG (size, alpha from the colour type and tRNS), still WebP (VP8, VP8L, VP8X), still AVIF
/// (ispe, pixi, auxC) and every animation (GIF, APNG, animated WebP: size, frames, durations, loop count,
/// alpha); for all, bit depth, colour profile name and EXIF camera and date (``ImageDetails``). An AVIF
/// turned by irot/imir, or a header that cannot be read, is decoded instead.
package enum ImageHeaders {
    /// Summarises `data`, decoding only what the headers do not say. `options` bounds what is decoded.
    package static func summarize(
        _ data: Data, source: String, coders: ImageCodersManager = .shared, options: ImageDecodingOptions = ImageDecodingOptions()
    ) throws -> ImageSummary {
        let format = ImageFormat(detecting: data)
        let details = ImageDetails(data, format: format)
        var summary = ImageSummary(source: source, format: format, bytes: data.count)
        summary.add(details)
        if let animation = try coders.animatedFrameSource(for: data, options: options), animation.frameCount > 1 {
            summary.size = animation.pixelSize
            summary.frames = animation.frameCount
            summary.loopCount = animation.loopCount
            summary.durationMilliseconds = Int(animation.totalDuration / .milliseconds(1))
            summary.hasAlpha = animationMayHaveAlpha(data, format: format)
            summary.orientation = animation.orientation.description
        } else if format == .jpeg {
            summary.size = try JPEGCoder().info(of: data).size
            summary.hasAlpha = false
            summary.orientation = (ExifOrientationReader.orientation(inJPEG: data) ?? .up).description
        } else if format == .png, let header = PNGHeader(data) {
            summary.size = header.size
            summary.hasAlpha = header.hasAlpha
        } else if format == .webp || format == .avif, let size = details.size, let hasAlpha = details.hasAlpha {
            summary.size = size
            summary.hasAlpha = hasAlpha
        } else {
            return try decoded(data, source: source, coders: coders, options: options)
        }
        return summary
    }

    /// Summarises `data` by decoding every pixel, with what only the headers say (bit depth, profile, EXIF).
    package static func decoded(
        _ data: Data, source: String, coders: ImageCodersManager = .shared, options: ImageDecodingOptions = ImageDecodingOptions()
    ) throws -> ImageSummary {
        var summary = ImageSummary(image: try coders.decode(data, options: options), byteCount: data.count, source: source)
        summary.add(ImageDetails(data, format: summary.format))
        return summary
    }

    /// Whether an animation's container says it may have transparent pixels: a GIF graphic control
    /// extension with a transparent index, a WebP VP8X alpha flag, an APNG colour type with alpha or tRNS.
    static func animationMayHaveAlpha(_ data: Data, format: ImageFormat) -> Bool {
        let bytes = [UInt8](data)
        switch format {
        case .gif:
            // 0x21 0xF9 0x04 introduces a graphic control extension; bit 0 of its next byte is "transparent index".
            guard bytes.count > 4 else { return false }
            return (0..<(bytes.count - 4)).contains { bytes[$0] == 0x21 && bytes[$0 + 1] == 0xF9 && bytes[$0 + 2] == 0x04 && bytes[$0 + 3] & 1 == 1 }
        case .webp:
            return bytes.count > 20 && bytes[12..<16].elementsEqual("VP8X".utf8) && bytes[20] & 0x10 != 0
        case .png:
            return PNGHeader(data)?.hasAlpha ?? true
        default:
            return true
        }
    }
}

/// The size and alpha of a PNG, from its IHDR chunk and the chunks before its pixel data.
struct PNGHeader {
    var size: PixelSize
    var hasAlpha: Bool

    /// Reads the header; `nil` when it is damaged (the caller then decodes, which says what is wrong).
    init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(64 * 1024))
        func uint32(at offset: Int) -> Int? {
            guard offset + 4 <= bytes.count else { return nil }
            return bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        guard let width = uint32(at: 16), let height = uint32(at: 20), width > 0, height > 0, bytes.count > 25,
              bytes[12...15].elementsEqual("IHDR".utf8) else { return nil }
        let colourType = bytes[25]
        var hasTransparencyChunk = false
        var offset = 8
        while let length = uint32(at: offset), offset + 8 <= bytes.count {
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "tRNS" { hasTransparencyChunk = true }
            if type == "IDAT" || type == "IEND" { break }
            offset += 12 + length
        }
        size = PixelSize(width: width, height: height)
        hasAlpha = colourType == 4 || colourType == 6 || hasTransparencyChunk
    }
}
