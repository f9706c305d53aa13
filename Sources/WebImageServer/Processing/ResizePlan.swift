import WebImageKit

/// What imgproxy's resizing options do to a source of a given size: resize the whole image to
/// ``scaledSize``, then cut ``crop`` from it (fill and fill-down only).
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

    /// The plan for `source` under `options`: sizes times `dpr`, 0 keeps the aspect ratio, no enlarging
    /// unless `enlarge`.
    init(source: PixelSize, options: ProcessingOptions) {
        let width = Self.clamped((Double(options.width) * options.dpr).rounded())
        let height = Self.clamped((Double(options.height) * options.dpr).rounded())
        let sourceWidth = Double(source.width), sourceHeight = Double(source.height)
        crop = nil
        guard width > 0 || height > 0 else {
            scaledSize = source
            return
        }
        switch Self.effectiveType(options.resizingType, source: source, width: width, height: height) {
        case .force:
            var target = (width > 0 ? width : sourceWidth, height > 0 ? height : sourceHeight)
            if !options.enlarge { target = (min(target.0, sourceWidth), min(target.1, sourceHeight)) }
            scaledSize = PixelSize(width: max(1, Int(target.0)), height: max(1, Int(target.1)))
        case .fill, .fillDown:
            var scale = max(width / sourceWidth, height / sourceHeight)
            if !options.enlarge { scale = min(scale, 1) }
            scaledSize = Self.scaled(source, by: scale)
            var area = PixelSize(width: min(Int(width), scaledSize.width), height: min(Int(height), scaledSize.height))
            if options.resizingType == .fillDown, area.width < Int(width) || area.height < Int(height) {
                let ratio = width / height
                area = PixelSize(
                    width: max(1, min(scaledSize.width, Int((Double(scaledSize.height) * ratio).rounded()))),
                    height: max(1, min(scaledSize.height, Int((Double(scaledSize.width) / ratio).rounded()))))
            }
            if area != scaledSize {
                let origin = Self.origin(of: area, in: scaledSize, gravity: options.gravity, offsetScale: options.dpr)
                crop = Rect(x: origin.x, y: origin.y, width: area.width, height: area.height)
            }
        case .fit, .auto:
            var scale = min(width > 0 ? width / sourceWidth : .infinity, height > 0 ? height / sourceHeight : .infinity)
            if !options.enlarge { scale = min(scale, 1) }
            scaledSize = Self.scaled(source, by: scale)
        }
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

    private static func scaled(_ size: PixelSize, by scale: Double) -> PixelSize {
        guard scale != 1 else { return size }
        return PixelSize(
            width: max(1, Int(clamped((Double(size.width) * scale).rounded()))),
            height: max(1, Int(clamped((Double(size.height) * scale).rounded()))))
    }

    /// The largest side a plan holds: far above ``PixelBuffer/maximumSide``, so a plan that reaches it is
    /// refused by the pixel limit, yet small enough that converting it to `Int` cannot trap (a `dpr` of
    /// 1e300 times a width of `Int.max` is infinite).
    static let largestSide = Double(1 << 40)

    private static func clamped(_ side: Double) -> Double {
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
