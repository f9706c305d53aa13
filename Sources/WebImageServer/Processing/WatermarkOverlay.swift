import WebImageKit

/// imgproxy's watermark: the configured image laid over the result, last of all (after padding and flattening,
/// as in imgproxy's pipeline), at a gravity or tiled.
///
/// The watermark is first fitted into `scale` × the result's size when a scale is given (enlarging too, as
/// imgproxy does). Placed at a gravity, the offsets move it inward from its edge (pixels times `dpr`, or a
/// fraction of the result below 1) and it may hang over the edges; tiled (`re`), the offsets are the space
/// between tiles, and the middle tile is centred on the result. Tiles are read by position, so tiling allocates
/// nothing beyond the result.
///
/// Pixels are straight alpha (``PixelBuffer``): each pixel is composited "over" with the watermark's alpha times
/// the opacity.
struct WatermarkOverlay: Sendable {
    /// The configured watermark's pixels, upright.
    let pixels: PixelBuffer
    /// The URL's placement.
    let placement: ProcessingOptions.Watermark
    /// The configured base opacity, multiplied by the placement's.
    let baseOpacity: Double
    /// The factor of pixel offsets (the URL's `dpr`).
    let dpr: Double

    /// `result` with the watermark over it; `check` refuses a scaled watermark too large to allocate.
    func apply(to result: PixelBuffer, check: (Double, Double) throws -> Void) throws -> PixelBuffer {
        let opacity = min(max(placement.opacity * baseOpacity, 0), 1)
        guard opacity > 0, result.width > 0, result.height > 0, pixels.width > 0, pixels.height > 0 else { return result }
        let mark = try scaled(for: result.size, check: check)
        switch placement.position {
        case .replicate:
            let tile = tiling(of: mark.size, over: result.size)
            return composite(mark, over: result, opacity: opacity) { x, y in
                let tx = (x + tile.shiftX) % tile.width - tile.left, ty = (y + tile.shiftY) % tile.height - tile.top
                return (tx, ty)
            }
        case .gravity(let anchor):
            let origin = Self.origin(of: mark.size, in: result.size, anchor: anchor, x: offset(placement.xOffset, result.width),
                                     y: offset(placement.yOffset, result.height))
            return composite(mark, over: result, opacity: opacity) { x, y in (x - origin.x, y - origin.y) }
        }
    }

    /// The watermark fitted into `scale` × `size` (never smaller than 1×1), or as it is for a scale of 0.
    func scaled(for size: PixelSize, check: (Double, Double) throws -> Void) throws -> PixelBuffer {
        guard placement.scale > 0 else { return pixels }
        let boxWidth = max((Double(size.width) * placement.scale).rounded(), 1), boxHeight = max((Double(size.height) * placement.scale).rounded(), 1)
        let ratio = min(boxWidth / Double(pixels.width), boxHeight / Double(pixels.height))
        let width = max((Double(pixels.width) * ratio).rounded(), 1), height = max((Double(pixels.height) * ratio).rounded(), 1)
        try check(width, height)
        let target = PixelSize(width: Int(width), height: Int(height))
        return target == pixels.size ? pixels : Resampler.resize(pixels, to: target)
    }

    /// An offset in pixels: times `dpr` from 1 up, a fraction of `side` below; bounded so that it stays an `Int`.
    func offset(_ value: Double, _ side: Int) -> Double {
        let pixels = abs(value) < 1 ? value * Double(side) : value * dpr
        return min(max(pixels.rounded(), -Double(PixelBuffer.maximumSide)), Double(PixelBuffer.maximumSide))
    }

    /// A tile: the watermark with half the spacing on each side, and where the tiling starts so that an odd
    /// number of tiles covers the result with the middle one centred.
    func tiling(of mark: PixelSize, over result: PixelSize) -> (width: Int, height: Int, left: Int, top: Int, shiftX: Int, shiftY: Int) {
        let spaceX = Int(max(offset(placement.xOffset, result.width), 0)), spaceY = Int(max(offset(placement.yOffset, result.height), 0))
        let width = mark.width + spaceX, height = mark.height + spaceY
        func shift(_ tile: Int, _ side: Int) -> Int {
            var count = (side + tile - 1) / tile
            if count.isMultiple(of: 2) { count += 1 }
            return (count * tile - side) / 2 % tile
        }
        return (width, height, spaceX / 2, spaceY / 2, shift(width, result.width), shift(height, result.height))
    }

    /// Where a watermark of `mark` goes in `result` at `anchor`, moved inward by `x`, `y`; it may hang over an
    /// edge but keeps at least one pixel on the result.
    static func origin(of mark: PixelSize, in result: PixelSize, anchor: Gravity.Anchor, x: Double, y: Double) -> (x: Int, y: Int) {
        let spareX = Double(result.width - mark.width), spareY = Double(result.height - mark.height)
        let left: Double, top: Double
        switch anchor {
        case .north: (left, top) = ((spareX / 2).rounded(.down) + x, y)
        case .south: (left, top) = ((spareX / 2).rounded(.down) + x, spareY - y)
        case .east: (left, top) = (spareX - x, (spareY / 2).rounded(.down) + y)
        case .west: (left, top) = (x, (spareY / 2).rounded(.down) + y)
        case .northEast: (left, top) = (spareX - x, y)
        case .northWest: (left, top) = (x, y)
        case .southEast: (left, top) = (spareX - x, spareY - y)
        case .southWest: (left, top) = (x, spareY - y)
        case .center, .smart, .focusPoint: (left, top) = ((spareX / 2).rounded(.down) + x, (spareY / 2).rounded(.down) + y)
        }
        let clampedLeft = min(max(left, Double(1 - mark.width)), Double(result.width - 1))
        let clampedTop = min(max(top, Double(1 - mark.height)), Double(result.height - 1))
        return (Int(clampedLeft), Int(clampedTop))
    }

    /// `result` with `mark` composited over it: `locate` gives, for a result pixel, the watermark pixel over it
    /// (outside `mark`: none).
    private func composite(
        _ mark: PixelBuffer, over result: PixelBuffer, opacity: Double, locate: (Int, Int) -> (Int, Int)
    ) -> PixelBuffer {
        var bytes = result.bytes
        let markBytes = mark.bytes, width = result.width, alphaScale = opacity / 255
        for y in 0..<result.height {
            for x in 0..<width {
                let (mx, my) = locate(x, y)
                guard mx >= 0, my >= 0, mx < mark.width, my < mark.height else { continue }
                let m = (my * mark.width + mx) * 4
                let sourceAlpha = Double(markBytes[m + 3]) * alphaScale
                guard sourceAlpha > 0 else { continue }
                let i = (y * width + x) * 4
                let destinationAlpha = Double(bytes[i + 3]) / 255
                let outAlpha = sourceAlpha + destinationAlpha * (1 - sourceAlpha)
                for channel in 0..<3 {
                    let blended = Double(markBytes[m + channel]) * sourceAlpha + Double(bytes[i + channel]) * destinationAlpha * (1 - sourceAlpha)
                    bytes[i + channel] = UInt8(min(max((blended / outAlpha).rounded(), 0), 255))
                }
                bytes[i + 3] = UInt8(min(max((outAlpha * 255).rounded(), 0), 255))
            }
        }
        return PixelBuffer(width: width, height: result.height, hasAlpha: result.hasAlpha, bytes: bytes)
    }
}
