import Foundation
import WebImageKit

/// The decoder of the server's ``ImageManager``: the built-in coders, plus two things they do not do.
///
/// - A JPEG whose header declares more than `maximumPixelCount` pixels is refused before decoding (the
///   JPEG decoder itself checks the size it decodes at, which shrink-on-load makes smaller).
/// - A thumbnail asked for with `preserveAspectRatio == false` means "cover this box, keeping the aspect
///   ratio" (what fill and force need), not "stretch to it": a JPEG is decoded at the smallest size that
///   covers the box; other formats decode whole and the transformer resizes them.
struct SourceDecoder: ImageCoding {
    /// The coders that do the work.
    let coders: ImageCodersManager

    func canDecode(_ data: Data) -> Bool { coders.canDecode(data) }

    func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        var options = options
        let isJPEG = ImageFormat(detecting: data) == .jpeg
        let stored = isJPEG ? try JPEGCoder().info(of: data).size : nil
        if let stored {
            try ImageCodingError.checkDimensions(.jpeg, width: stored.width, height: stored.height, limit: options.maximumPixelCount)
        }
        if let box = options.thumbnailPixelSize, !options.preserveAspectRatio {
            options.preserveAspectRatio = true
            options.thumbnailPixelSize = stored.flatMap { Self.coveringSize($0, box: box, orientation: ExifOrientationReader.orientation(inJPEG: data) ?? .up) }
        }
        return try coders.decode(data, options: options)
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        throw ImageCodingError(.unsupportedFormat, format: format, "the source decoder does not encode")
    }

    /// The smallest size of `stored`'s aspect ratio that covers `box` (upright, so turned with
    /// `orientation`), or nil when that is the stored size or more: then nothing shrinks.
    static func coveringSize(_ stored: PixelSize, box: PixelSize, orientation: ImageOrientation) -> PixelSize? {
        let upright = orientation.swapsDimensions ? PixelSize(width: stored.height, height: stored.width) : stored
        let scale = max(Double(box.width) / Double(upright.width), Double(box.height) / Double(upright.height))
        guard scale < 1 else { return nil }
        let covering = PixelSize(
            width: max(box.width, Int((Double(upright.width) * scale).rounded(.up))),
            height: max(box.height, Int((Double(upright.height) * scale).rounded(.up))))
        return covering
    }
}
