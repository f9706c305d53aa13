import WebImageKit

/// What imgproxy's resizing options do to a source of a given size: resize the whole image to
/// ``scaledSize``, then cut ``crop`` from it (fill and fill-down, or a result `min-width`/`min-height` made larger than asked).
struct ResizePlan: Sendable, Hashable {
    /// A rectangle in the scaled image.
    struct Rect: Sendable, Hashable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// The size the whole image is resized to.
    var scaledSize: PixelSize
    /// The area cut from the scaled image, or nil for all of it.
    var crop: Rect?

    /// The plan for `source` under `options`: sizes times `dpr` and `zoom`, 0 keeps the aspect ratio, no
    /// enlarging unless `enlarge` (or `min-width` / `min-height`), as imgproxy's `calcScale` computes it.
    init(source: PixelSize, options: ProcessingOptions) {
        let type = Self.effectiveType(
            options.resizingType, source: source, width: Double(options.width), height: Double(options.height))
        let scale = Self.scale(source: source, type: type, options: options)
        scaledSize = PixelSize(
            width: max(1, Int(Self.clamped((Double(source.width) * scale.x).rounded()))),
            height: max(1, Int(Self.clamped((Double(source.height) * scale.y).rounded()))))
        crop = nil
        let target = Self.targetSize(options)
        guard type == .fill || type == .fillDown else {
            // imgproxy crops every result to the requested size last: only `min-width` and `min-height` make a fit
            // or force result larger than it (`w:100/mw:200` is 100 wide, cut from a 200-wide image).
            let area = PixelSize(
                width: target.width > 0 ? max(1, min(Int(target.width), scaledSize.width)) : scaledSize.width,
                height: target.height > 0 ? max(1, min(Int(target.height), scaledSize.height)) : scaledSize.height)
            if area != scaledSize {
                let origin = Self.origin(of: area, in: scaledSize, gravity: options.gravity, offsetScale: options.dpr)
                crop = Rect(x: origin.x, y: origin.y, width: area.width, height: area.height)
            }
            return
        }
        let (width, height) = (target.width, target.height)
        var area = PixelSize(width: max(1, min(Int(width), scaledSize.width)), height: max(1, min(Int(height), scaledSize.height)))
        if options.resizingType == .fillDown, area.width < Int(width) || area.height < Int(height), width > 0, height > 0 {
            let ratio = width / height
            area = PixelSize(
                width: max(1, min(scaledSize.width, Int((Double(scaledSize.height) * ratio).rounded()))),
                height: max(1, min(scaledSize.height, Int((Double(scaledSize.width) / ratio).rounded()))))
        }
        if area != scaledSize {
            let origin = Self.origin(of: area, in: scaledSize, gravity: options.gravity, offsetScale: options.dpr)
            crop = Rect(x: origin.x, y: origin.y, width: area.width, height: area.height)
        }
    }

    /// The requested width and height times `dpr` and `zoom` (0 for a side not requested), as wide as a plan goes.
    static func targetSize(_ options: ProcessingOptions) -> (width: Double, height: Double) {
        (clamped((Double(options.width) * options.dpr * options.zoomX).rounded()),
         clamped((Double(options.height) * options.dpr * options.zoomY).rounded()))
    }

    /// The horizontal and vertical scale of the whole image: the resizing type's, times `zoom`, kept at most 1
    /// unless `enlarge`, raised to `min-width` and `min-height`, times `dpr` (which cannot enlarge either).
    ///
    /// Unlike imgproxy, `force` without `enlarge` keeps each side at most the source's on its own (imgproxy
    /// scales both sides back together).
    private static func scale(source: PixelSize, type: ResizingType, options: ProcessingOptions) -> (x: Double, y: Double) {
        let sourceWidth = Double(source.width), sourceHeight = Double(source.height)
        let width = Double(options.width), height = Double(options.height)
        var x = width > 0 ? width / sourceWidth : 1
        var y = height > 0 ? height / sourceHeight : 1
        switch type {
        case .force: break
        case _ where width == 0: x = y
        case _ where height == 0: y = x
        case .fill, .fillDown: (x, y) = (max(x, y), max(x, y))
        case .fit, .auto: (x, y) = (min(x, y), min(x, y))
        }
        x *= options.zoomX
        y *= options.zoomY
        // The factor `dpr` really scales by: without `enlarge`, no more than what keeps the image at most its size.
        var dprScale = options.dpr
        var result = (x: x * dprScale, y: y * dprScale)
        if !options.enlarge {
            let largest = max(x, y)
            if largest > 1 {
                dprScale = min(options.extend ? dprScale : dprScale * largest, 1)
                (x, y) = (x / largest, y / largest)
            } else {
                dprScale = min(dprScale, 1 / largest)
            }
            result = type == .force
                ? (min(result.x, 1), min(result.y, 1))
                : (x * dprScale, y * dprScale)
        }
        if options.minWidth > 0 {
            let least = Double(options.minWidth) * dprScale / sourceWidth
            if least > result.x { result = (least, result.y * least / result.x) }
        }
        if options.minHeight > 0 {
            let least = Double(options.minHeight) * dprScale / sourceHeight
            if least > result.y { result = (result.x * least / result.y, least) }
        }
        return result
    }

    /// `auto` resolved (fill when source and result have the same orientation, else fit); fill types with a
    /// side left to the aspect ratio are fits.
    private static func effectiveType(_ type: ResizingType, source: PixelSize, width: Double, height: Double) -> ResizingType {
        switch type {
        case .fill, .fillDown, .auto:
            guard width > 0, height > 0 else { return .fit }
            guard type == .auto else { return type }
            return (source.width >= source.height) == (width >= height) ? .fill : .fit
        case .fit, .force:
            return type
        }
    }

    /// The largest side a plan holds: far above ``PixelBuffer/maximumSide``, so a plan that reaches it is
    /// refused by the pixel limit, yet small enough that converting it to `Int` cannot trap (a `dpr` of
    /// 1e300 times a width of `Int.max` is infinite).
    static let largestSide = Double(1 << 40)

    static func clamped(_ side: Double) -> Double {
        side.isNaN ? 0 : min(side, largestSide)
    }

    /// Where an `area` cut from `image` starts under `gravity`: offsets of 1 or more are pixels (times
    /// `offsetScale`, the `dpr` for areas of the result, as imgproxy scales them), smaller ones fractions of
    /// the image; they move the area away from its edge; the area stays inside the image. `extend` places
    /// an image on a larger canvas with it too: the image is the `area`, the canvas the `image`.
    static func origin(of area: PixelSize, in image: PixelSize, gravity: Gravity, offsetScale: Double = 1) -> (x: Int, y: Int) {
        let spareX = Double(image.width - area.width), spareY = Double(image.height - area.height)
        func offset(_ value: Double, _ side: Int) -> Double { abs(value) < 1 ? value * Double(side) : value * offsetScale }
        let dx = offset(gravity.xOffset, image.width), dy = offset(gravity.yOffset, image.height)
        let x: Double, y: Double
        switch gravity.anchor {
        case .focusPoint:
            x = gravity.xOffset * Double(image.width) - Double(area.width) / 2
            y = gravity.yOffset * Double(image.height) - Double(area.height) / 2
        case .center, .smart: (x, y) = (spareX / 2 + dx, spareY / 2 + dy)
        case .north: (x, y) = (spareX / 2 + dx, dy)
        case .south: (x, y) = (spareX / 2 + dx, spareY - dy)
        case .east: (x, y) = (spareX - dx, spareY / 2 + dy)
        case .west: (x, y) = (dx, spareY / 2 + dy)
        case .northEast: (x, y) = (spareX - dx, dy)
        case .northWest: (x, y) = (dx, dy)
        case .southEast: (x, y) = (spareX - dx, spareY - dy)
        case .southWest: (x, y) = (dx, spareY - dy)
        }
        let clampedX = min(max(x.rounded(.down), 0), max(spareX, 0))
        let clampedY = min(max(y.rounded(.down), 0), max(spareY, 0))
        return (Int(clampedX), Int(clampedY))
    }
}
