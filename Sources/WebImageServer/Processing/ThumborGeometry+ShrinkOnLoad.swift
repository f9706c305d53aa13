import Foundation
import WebImageKit

extension ProcessingOptions {
    /// ``ThumborGeometry/shrinkOnLoad`` of this URL's thumbor geometry, unless `trim` needs the whole image.
    var thumborShrinkOnLoad: (size: PixelSize, mode: ImageDecodingOptions.ThumbnailMode)? {
        trim == nil ? thumborGeometry?.shrinkOnLoad : nil
    }

    /// The box a JPEG stored at `stored` (upright) decodes into under thumbor's geometry, the smaller of two:
    /// ``thumborShrinkOnLoad``'s, when the plan needs no pixels; and, when `MAX_WIDTH`/`MAX_HEIGHT` shrink the
    /// source, that size exactly (thumbor's first step: whatever follows works on it). nil: the whole image.
    func thumborDecodeBox(stored: PixelSize) -> (size: PixelSize, mode: ImageDecodingOptions.ThumbnailMode)? {
        let normalized = thumborGeometry?.normalizedSize(of: stored)
        if let shrink = thumborShrinkOnLoad {
            guard let normalized else { return shrink }
            // The scale each decodes at: a fit is the box's smaller ratio, a cover its larger.
            let widthRatio = Double(shrink.size.width) / Double(stored.width), heightRatio = Double(shrink.size.height) / Double(stored.height)
            let shrinkScale = shrink.mode == .fit ? min(widthRatio, heightRatio) : max(widthRatio, heightRatio)
            let normalizedScale = max(Double(normalized.width) / Double(stored.width), Double(normalized.height) / Double(stored.height))
            if shrinkScale <= normalizedScale { return shrink }
        }
        return normalized.map { ($0, .stretch) }
    }
}

extension ThumborGeometry {
    /// The thumbnail box for shrink-on-load under thumbor's geometry, and whether the decoded image fits inside it
    /// or covers it; nil when the full image is needed.
    ///
    /// The plan is then made on the size stored in the file (``storedSize(of:appliesOrientation:)``), so the result's
    /// size is thumbor's whatever the decoder's scale; only what plans on pixels (a manual crop, `trim`, focal
    /// points, `smart`) or changes sizes after the transform (`no_upscale`, `upscale`, `proportion`, `stretch`,
    /// adaptive boxes, `orig`) keeps the full image.
    var shrinkOnLoad: (size: PixelSize, mode: ImageDecodingOptions.ThumbnailMode)? {
        guard crop == nil, focalPoints.isEmpty, !smart, !stretch, !noUpscale, !upscale, proportion == nil, !adaptive,
            case .pixels(let width) = width, case .pixels(let height) = height, width > 0 || height > 0 else { return nil }
        let box = PixelSize(width: width > 0 ? width : PixelBuffer.maximumSide, height: height > 0 ? height : PixelBuffer.maximumSide)
        let bothSides = width > 0 && height > 0
        switch fit {
        case .fitIn: return (box, .fit)
        case .fullFitIn, .none: return (box, bothSides ? .fill : .fit)
        }
    }

    /// The upright size a JPEG source stores (its header's, turned by its EXIF orientation when the decoder applies
    /// it); nil for other formats, which are then decoded whole.
    static func storedSize(of data: Data, appliesOrientation: Bool) -> PixelSize? {
        guard ImageFormat(detecting: data) == .jpeg, let size = try? JPEGCoder().info(of: data).size else { return nil }
        let orientation = appliesOrientation ? ExifOrientationReader.orientation(inJPEG: data) ?? .up : .up
        return orientation.swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
    }
}
