import WebImageKit

/// What thumbor's transform did to one source, as thumbor's JSON engine records it for `meta/`: the operations in
/// their order and the focal points the crops centred on.
struct ThumborSteps: Sendable, Hashable {
    /// One operation as thumbor's JSON engine lists it. The resize of the source by `MAX_WIDTH`/`MAX_HEIGHT` and
    /// the filters after the transform (`rotate`, `upscale`, `proportion`) are not listed, as in thumbor.
    enum Operation: Sendable, Hashable {
        /// A cut: `trim`'s, the manual crop, the crop to the requested aspect ratio; left and top inclusive, in
        /// the pixels of the image at that step.
        case crop(ThumborRequest.Rectangle)
        /// A resize to this size.
        case resize(PixelSize)
        /// A mirror, left to right.
        case flipHorizontally
        /// A mirror, top to bottom.
        case flipVertically
    }

    /// A focal point as thumbor's `FocalPoint.to_dict()` writes it.
    struct FocalPoint: Sendable, Hashable {
        /// The centre.
        var x: Int
        var y: Int
        /// The weight (thumbor's `z`): 1 for the alignment's point, the area for a rectangle's.
        var weight: Double
        /// The rectangle's size; 1 for a point.
        var width: Int
        var height: Int
        /// Where it comes from: `alignment`, `Explicit` (the `focal()` filter), `smart` (``SmartCrop``'s window).
        var origin: String
    }

    /// The operations, in order.
    var operations: [Operation] = []
    /// The focal points.
    var focalPoints: [FocalPoint] = []

    /// thumbor's `adjust_focal_points`: the `focal()` rectangles (after a manual crop, moved by it and those outside
    /// it dropped), else the point ``SmartCrop`` centred the crop on, else the alignment's point in `source` (the
    /// size after the manual crop).
    static func focalPoints(of geometry: ThumborGeometry, source: PixelSize, smartWindow: ResizePlan.Rect?) -> [FocalPoint] {
        var points: [FocalPoint] = []
        for square in geometry.focalPoints {
            let width = square.right - square.left, height = square.bottom - square.top
            var x = square.left + ThumborResizePlan.floorHalf(width), y = square.top + ThumborResizePlan.floorHalf(height)
            if let crop = geometry.crop {
                guard x >= crop.left, x <= crop.right, y >= crop.top, y <= crop.bottom else { continue }
                x -= crop.left
                y -= crop.top
            }
            points.append(FocalPoint(x: x, y: y, weight: Double(width * height), width: width, height: height, origin: "Explicit"))
        }
        if !points.isEmpty { return points }
        if let window = smartWindow {
            return [FocalPoint(
                x: window.x + window.width / 2, y: window.y + window.height / 2, weight: Double(window.width * window.height),
                width: window.width, height: window.height, origin: "smart")]
        }
        let fractionX: Double = switch geometry.horizontalAlignment { case .left: 0; case .center: 0.5; case .right: 1 }
        let fractionY: Double = switch geometry.verticalAlignment { case .top: 0; case .middle: 0.5; case .bottom: 1 }
        return [FocalPoint(
            x: Int(Double(source.width) * fractionX), y: Int(Double(source.height) * fractionY), weight: 1, width: 1, height: 1,
            origin: "alignment")]
    }
}
