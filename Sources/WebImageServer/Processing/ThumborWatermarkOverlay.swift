import Foundation
import WebImageKit

/// thumbor's `watermark` filter (``ThumborWatermark``) drawn as thumbor 7.8 draws it
/// (`thumbor/filters/watermark.py`, its C `_alpha` and `_composite`): the watermark's alpha lowered by the
/// transparency, the watermark fitted into the ratios of the image (when given), then pasted once at its position
/// or tiled along `repeat` axes, each paste composited "over" the image with thumbor's arithmetic.
struct ThumborWatermarkOverlay: Sendable {
    /// A watermark thumbor cannot draw either (it answers 500): one fitted to no pixel, or a position beyond
    /// a C `int`.
    struct Unusable: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// The filter's arguments.
    let watermark: ThumborWatermark
    /// The watermark image's pixels, upright.
    let pixels: PixelBuffer

    /// `image` with the watermark over it; `check` refuses a fitted watermark too large to allocate.
    func apply(to image: PixelBuffer, check: (Double, Double) throws -> Void) throws -> PixelBuffer {
        guard image.width > 0, image.height > 0, pixels.width > 0, pixels.height > 0 else { return image }
        var mark = lowered(pixels, by: watermark.transparency)
        if watermark.widthRatio != nil || watermark.heightRatio != nil {
            let size = Self.fittedSize(of: mark.size, in: image.size, widthRatio: watermark.widthRatio, heightRatio: watermark.heightRatio)
            guard size.width >= 1, size.height >= 1 else { throw Unusable(description: "the watermark would be fitted to no pixel") }
            try check(size.width, size.height)
            mark = Resampler.resize(mark, to: PixelSize(width: Int(size.width), height: Int(size.height)))
        }
        let columns = try Self.placements(watermark.x, imageSide: image.width, markSide: mark.width)
        let rows = try Self.placements(watermark.y, imageSide: image.height, markSide: mark.height)
        let (xs, ys) = Self.tiles(columns, rows, image: image.size, mark: mark.size)
        var bytes = image.bytes
        for x in xs {
            for y in ys {
                Self.composite(mark, at: x, y, over: &bytes, width: image.width, height: image.height)
            }
        }
        return PixelBuffer(width: image.width, height: image.height, hasAlpha: image.hasAlpha, bytes: bytes)
    }

    /// The watermark with thumbor's `_alpha`: every alpha value lowered by `255 × transparency / 100` (integer
    /// division), at least 0.
    func lowered(_ mark: PixelBuffer, by transparency: Int) -> PixelBuffer {
        let delta = 255 * transparency / 100
        guard delta > 0 else { return mark }
        var bytes = mark.bytes
        for index in stride(from: 3, to: bytes.count, by: 4) {
            bytes[index] = UInt8(max(Int(bytes[index]) - delta, 0))
        }
        return PixelBuffer(width: mark.width, height: mark.height, hasAlpha: true, bytes: bytes)
    }

    /// thumbor's `calc_watermark_size`: the watermark fitted into `widthRatio` × the image's width and
    /// `heightRatio` × its height (a missing one follows from the other and the watermark's aspect), rounded as
    /// Python rounds (half to even). The sizes may be 0 or huge; the caller checks them.
    static func fittedSize(of mark: PixelSize, in image: PixelSize, widthRatio: Double?, heightRatio: Double?) -> (width: Double, height: Double) {
        let markWidth = Double(mark.width), markHeight = Double(mark.height)
        var maximumWidth = widthRatio.map { Double(image.width) * $0 }
        var maximumHeight = heightRatio.map { Double(image.height) * $0 }
        if maximumWidth == nil, let height = maximumHeight { maximumWidth = markWidth * height / markHeight }
        if maximumHeight == nil, let width = maximumWidth { maximumHeight = markHeight * width / markWidth }
        guard let boxWidth = maximumWidth, let boxHeight = maximumHeight, boxWidth > 0, boxHeight > 0 else { return (0, 0) }
        if markWidth / boxWidth >= markHeight / boxHeight {
            return (boxWidth.rounded(.toNearestOrEven), (markHeight * boxWidth / markWidth).rounded(.toNearestOrEven))
        }
        return ((markWidth * boxHeight / markHeight).rounded(.toNearestOrEven), boxHeight.rounded(.toNearestOrEven))
    }

    /// Where pastes start along one axis: one position, or for `repeat` the count of tiles and the pixels left
    /// over between them (thumbor's `divmod`, or at least two tiles' worth when fewer than two fit).
    enum Placement: Equatable {
        case single(Int)
        case repeated(count: Int, remainder: Int)
    }

    /// The placement of `position` on an image side of `imageSide` for a watermark side of `markSide`; throws
    /// when the position does not fit a C `int` (thumbor's `_composite` then fails).
    static func placements(_ position: ThumborWatermark.Position, imageSide: Int, markSide: Int) throws -> Placement {
        let offset: Double, fromEnd: Bool
        switch position {
        case .repeat:
            guard Double(imageSide) / Double(markSide) >= 2 else {
                return .repeated(count: (imageSide + markSide - 1) / markSide, remainder: 10)
            }
            return .repeated(count: imageSide / markSide, remainder: imageSide % markSide)
        case .center:
            // Python's int() of a true division: towards zero.
            return .single(Int((Double(imageSide - markSide) / 2).rounded(.towardZero)))
        case .pixels(let pixels, let end):
            (offset, fromEnd) = (Double(pixels), end)
        case .percent(let percent, let end):
            (offset, fromEnd) = ((Double(imageSide) * Double(percent) / 100 + 1e-5).rounded(.toNearestOrEven), end)
        }
        let start = fromEnd ? Double(imageSide - markSide) - offset : offset
        guard start >= Double(Int32.min), start <= Double(Int32.max) else {
            throw Unusable(description: "the watermark's position is out of range")
        }
        return .single(Int(start))
    }

    /// The paste origins: every column start with every row start. Tiles are spaced so that the remainder is
    /// shared between them; when both axes repeat and more than 100 tiles would be pasted, at most 6 on each.
    static func tiles(_ columns: Placement, _ rows: Placement, image: PixelSize, mark: PixelSize) -> (xs: [Int], ys: [Int]) {
        var columns = columns, rows = rows
        if case .repeated(let countX, _) = columns, case .repeated(let countY, _) = rows, countX * countY > 100 {
            let limitedX = min(6, countX), limitedY = min(6, countY)
            columns = .repeated(count: limitedX, remainder: image.width - limitedX * mark.width)
            rows = .repeated(count: limitedY, remainder: image.height - limitedY * mark.height)
        }
        return (starts(columns, markSide: mark.width), starts(rows, markSide: mark.height))
    }

    /// The starts of `placement`: the one position, or each tile's.
    private static func starts(_ placement: Placement, markSide: Int) -> [Int] {
        switch placement {
        case .single(let start):
            return [start]
        case .repeated(let count, let remainder):
            let divisor = max(count, 2) - 1
            // Python's floor division (the remainder may be negative when tiles are limited).
            let space = remainder >= 0 ? remainder / divisor : -((-remainder + divisor - 1) / divisor)
            return (0..<count).map { $0 * (space + markSide) }
        }
    }

    /// thumbor's `_composite` with merging: `mark` over the pixels in `bytes` with its top-left at (`left`,
    /// `top`); what falls outside the image is skipped. Each channel is truncated to an integer, as thumbor's C does.
    static func composite(_ mark: PixelBuffer, at left: Int, _ top: Int, over bytes: inout [UInt8], width: Int, height: Int) {
        let firstColumn = max(0, -left), lastColumn = min(mark.width, width - left)
        let firstRow = max(0, -top), lastRow = min(mark.height, height - top)
        guard firstColumn < lastColumn, firstRow < lastRow else { return }
        let markBytes = mark.bytes
        for row in firstRow..<lastRow {
            for column in firstColumn..<lastColumn {
                let m = (row * mark.width + column) * 4, i = ((top + row) * width + left + column) * 4
                let imageTransparency = 255 - Double(bytes[i + 3]), markTransparency = 255 - Double(markBytes[m + 3])
                let both = (markTransparency / 255) * (imageTransparency / 255)
                let covered = 1 - both
                let scale = covered <= 1e-12 ? 1 : 1 / covered
                for channel in 0..<3 {
                    let blended = (1 - markTransparency / 255) * Double(markBytes[m + channel])
                        + (1 - imageTransparency / 255) * Double(bytes[i + channel]) * (markTransparency / 255)
                    bytes[i + channel] = truncated(scale * blended)
                }
                bytes[i + 3] = truncated(255 - 255 * both)
            }
        }
    }

    /// thumbor's `ADJUST_COLOR_DOUBLE`: clamped to 0…255, then truncated.
    private static func truncated(_ value: Double) -> UInt8 {
        UInt8(value > 255 ? 255 : value < 0 ? 0 : value)
    }
}
