import Foundation
import WebImageKit

/// What thumbor's transformer does to a source of a given size under a ``ThumborGeometry``, with thumbor's
/// arithmetic (its `Transformer`, `no_upscale`, `upscale` and `proportion` filters): cut ``crop`` from the source
/// (the manual crop already cut), resize to ``resizedSize``, then resize to ``finalSize``.
///
/// Python rounds halves to even (`round`), truncates in `int()` and compares ratios rounded to two decimals;
/// each is reproduced, so that the pixel sizes equal thumbor's.
struct ThumborResizePlan: Sendable {
    /// The area to cut from the source before resizing (thumbor's crop to the aspect ratio), or nil.
    var crop: ResizePlan.Rect?
    /// The size after the transform's resize (the source's, or the crop's, when it does not resize).
    var resizedSize: PixelSize
    /// Whether thumbor's transform resizes (to ``resizedSize``; `full-fit-in` may resize to the same size).
    var resizes = false
    /// The window ``SmartCrop`` chose, when the crop to the aspect ratio centred on it.
    var smartWindow: ResizePlan.Rect?
    /// The size after `upscale()` and `proportion()`.
    var finalSize: PixelSize
    /// The requested size after the transform, as thumbor's later filters (`fill`) read it: fit-in makes it at
    /// least the resized size, adaptive swaps it; a side of 0 stays 0.
    var requestedAfterTransform: (width: Int, height: Int)

    /// The plan for `source` (after `trim` and the manual crop) under `geometry`; `original` is the decoded
    /// source's size (after `MAX_WIDTH`/`MAX_HEIGHT`), which `no_upscale()` compares with; `smartWindow` is the window
    /// of a size ``SmartCrop`` finds, when `smart/` asks for it.
    init(source: PixelSize, original: PixelSize, geometry: ThumborGeometry, smartWindow: ((PixelSize) -> ResizePlan.Rect)? = nil) {
        var requestedWidth = geometry.width, requestedHeight = geometry.height
        if geometry.noUpscale {
            if case .pixels(let width) = requestedWidth { requestedWidth = .pixels(min(width, original.width)) }
            if case .pixels(let height) = requestedHeight { requestedHeight = .pixels(min(height, original.height)) }
        }
        let sourceWidth = Double(source.width), sourceHeight = Double(source.height)
        var target = Self.targetSize(source: source, width: requestedWidth, height: requestedHeight)
        var requested = (width: requestedWidth.pixelsOrZero, height: requestedHeight.pixelsOrZero)
        if case .original = requestedWidth { requested.width = source.width }
        if case .original = requestedHeight { requested.height = source.height }
        crop = nil
        switch geometry.fit {
        case .fitIn, .fullFitIn:
            if geometry.adaptive, (sourceWidth < sourceHeight && target.width > target.height) || (sourceWidth > sourceHeight && target.width < target.height) {
                target = (target.height, target.width)
                requested = (requested.height, requested.width)
            }
            let full = geometry.fit == .fullFitIn
            if target.width <= 0 || target.height <= 0 || (!full && target.width >= sourceWidth && target.height >= sourceHeight) {
                resizedSize = source
            } else {
                let sign = full ? -1.0 : 1.0
                let width: Double, height: Double
                if sourceWidth / target.width * sign >= sourceHeight / target.height * sign {
                    (width, height) = (target.width, (sourceHeight * target.width / sourceWidth + 1e-5).rounded(.toNearestOrEven))
                } else {
                    (width, height) = ((sourceWidth * target.height / sourceHeight + 1e-5).rounded(.toNearestOrEven), target.height)
                }
                resizedSize = PixelSize(width: Self.pixels(width), height: Self.pixels(height))
                resizes = true
                requested = (max(requested.width, resizedSize.width), max(requested.height, resizedSize.height))
            }
        case .none:
            var cropped = source
            if !geometry.stretch, let (area, window) = Self.autoCrop(source: source, target: target, geometry: geometry, smartWindow: smartWindow) {
                crop = area
                self.smartWindow = window
                cropped = PixelSize(width: area.width, height: area.height)
            }
            let unchanged = target.width == Double(cropped.width) && target.height == Double(cropped.height)
            resizes = !unchanged
            resizedSize = unchanged ? cropped : PixelSize(width: Self.pixels(target.width == 0 ? 1 : target.width), height: Self.pixels(target.height == 0 ? 1 : target.height))
        }
        requestedAfterTransform = requested
        finalSize = resizedSize
        if geometry.upscale { finalSize = Self.upscaled(finalSize, requested: requested) }
        if let proportion = geometry.proportion, proportion > 0, proportion <= 1 {
            let width = Double(finalSize.width) * proportion, height = Double(finalSize.height) * proportion
            if width >= 1, height >= 1 { finalSize = PixelSize(width: Int(width), height: Int(height)) }
        }
    }

    /// thumbor's `_calculate_target_dimensions`: the requested sides, `orig` as the source's, a side of 0 from the
    /// other and the aspect ratio (Python's `round`, halves to even); neither given: the source's size.
    static func targetSize(source: PixelSize, width: ThumborRequest.Side, height: ThumborRequest.Side) -> (width: Double, height: Double) {
        let sourceWidth = Double(source.width), sourceHeight = Double(source.height)
        if width == .pixels(0), height == .pixels(0) { return (sourceWidth, sourceHeight) }
        func side(_ value: ThumborRequest.Side, own: Double) -> Double? {
            switch value {
            case .original: own
            case .pixels(let pixels): pixels > 0 ? Double(pixels) : nil
            }
        }
        let givenWidth = side(width, own: sourceWidth), givenHeight = side(height, own: sourceHeight)
        let targetWidth = givenWidth ?? (givenHeight ?? 0) * sourceWidth / sourceHeight
        let targetHeight = givenHeight ?? (givenWidth ?? 0) * sourceHeight / sourceWidth
        return (givenWidth ?? targetWidth.rounded(.toNearestOrEven), givenHeight ?? targetHeight.rounded(.toNearestOrEven))
    }

    /// thumbor's `auto_crop`: the largest area of the target's aspect ratio (ratios compared at two decimals), centred
    /// on the focal points' weighted centre (or the smart window's centre, or the alignment), kept inside the
    /// source; with the smart window when the crop centred on it.
    private static func autoCrop(
        source: PixelSize, target: (width: Double, height: Double), geometry: ThumborGeometry,
        smartWindow: ((PixelSize) -> ResizePlan.Rect)?
    ) -> (ResizePlan.Rect, smartWindow: ResizePlan.Rect?)? {
        let sourceWidth = Double(source.width), sourceHeight = Double(source.height)
        let targetWidth = target.width == 0 ? 1 : target.width, targetHeight = target.height == 0 ? 1 : target.height
        guard twoDecimals(sourceWidth / sourceHeight) != twoDecimals(targetWidth / targetHeight) else { return nil }
        let cropWidth: Double, cropHeight: Double
        if target.width / sourceWidth > target.height / sourceHeight {
            (cropWidth, cropHeight) = (sourceWidth, (sourceWidth * target.height / targetWidth).rounded(.toNearestOrEven))
        } else {
            (cropWidth, cropHeight) = ((target.width * sourceHeight / targetHeight).rounded(.up), sourceHeight)
        }
        let area = PixelSize(width: pixels(cropWidth), height: pixels(cropHeight))
        let focal = focalCenter(source: source, geometry: geometry)
        let window = focal == nil ? smartWindow.map { find in find(area) } : nil
        let smart = window.map { (x: Double($0.x + $0.width / 2), y: Double($0.y + $0.height / 2)) }
        let focus = focal ?? smart ?? alignmentCenter(source: source, geometry: geometry)
        let left = Int(min(max(focus.x - cropWidth / 2, 0), sourceWidth - cropWidth).rounded(.toNearestOrEven))
        let top = Int(min(max(focus.y - cropHeight / 2, 0), sourceHeight - cropHeight).rounded(.toNearestOrEven))
        let right = min(left + area.width, source.width), bottom = min(top + area.height, source.height)
        return (ResizePlan.Rect(x: max(left, 0), y: max(top, 0), width: max(1, right - max(left, 0)), height: max(1, bottom - max(top, 0))), window)
    }

    /// The weighted centre of the focal points inside the source (shifted by the manual crop, those outside it
    /// dropped, as thumbor adjusts them), floored as Python's `//`; nil when there are none.
    private static func focalCenter(source: PixelSize, geometry: ThumborGeometry) -> (x: Double, y: Double)? {
        var total = 0.0, x = 0.0, y = 0.0
        for square in geometry.focalPoints {
            var centerX = square.left + Self.floorHalf(square.right - square.left), centerY = square.top + Self.floorHalf(square.bottom - square.top)
            if let crop = geometry.crop {
                guard centerX >= crop.left, centerX <= crop.right, centerY >= crop.top, centerY <= crop.bottom else { continue }
                centerX -= crop.left
                centerY -= crop.top
            }
            let weight = Double((square.right - square.left) * (square.bottom - square.top))
            total += weight
            x += Double(centerX) * weight
            y += Double(centerY) * weight
        }
        guard total > 0 else { return nil }
        return ((x / total).rounded(.down), (y / total).rounded(.down))
    }

    /// thumbor's focal point from the alignment: 0, half or all of each side.
    private static func alignmentCenter(source: PixelSize, geometry: ThumborGeometry) -> (x: Double, y: Double) {
        let fractionX: Double = switch geometry.horizontalAlignment { case .left: 0; case .center: 0.5; case .right: 1 }
        let fractionY: Double = switch geometry.verticalAlignment { case .top: 0; case .middle: 0.5; case .bottom: 1 }
        return ((Double(source.width) * fractionX).rounded(.towardZero), (Double(source.height) * fractionY).rounded(.towardZero))
    }

    /// thumbor's `upscale()` filter: a result smaller than the requested box on both sides is enlarged to fit it,
    /// sides truncated.
    private static func upscaled(_ size: PixelSize, requested: (width: Int, height: Int)) -> PixelSize {
        guard requested.width > 0, requested.height > 0, size.width < requested.width, size.height < requested.height else { return size }
        let width = Double(size.width), height = Double(size.height)
        let targetWidth = Double(requested.width), targetHeight = Double(requested.height)
        if width / targetWidth >= height / targetHeight {
            return PixelSize(width: requested.width, height: max(1, Int(height * targetWidth / width)))
        }
        return PixelSize(width: max(1, Int(width * targetHeight / height)), height: requested.height)
    }

    /// Python's `value // 2`, which rounds down for a negative value too (a `focal()` rectangle given right to left).
    static func floorHalf(_ value: Int) -> Int {
        value >= 0 ? value / 2 : -((-value + 1) / 2)
    }

    /// `value` as Python's `round(value, 2)` prints it, for comparing ratios.
    private static func twoDecimals(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    /// A side in whole pixels (Python's `int()` of a non-negative float), at least 1 and at most
    /// ``ResizePlan/largestSide`` so that it converts without trapping.
    private static func pixels(_ value: Double) -> Int {
        Int(ResizePlan.clamped(max(1, value.rounded(.towardZero))))
    }
}
