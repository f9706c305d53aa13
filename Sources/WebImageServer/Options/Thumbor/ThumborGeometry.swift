/// thumbor's geometry, kept on ``ProcessingOptions`` when a thumbor URL asks for it: thumbor orders and rounds
/// its crops and resizes differently from imgproxy (crop to the aspect ratio first, then resize; Python's
/// rounding; `fit-in` that never enlarges, `full-fit-in` that covers the box), so its sizes are computed by its
/// own arithmetic (``ThumborResizePlan``) rather than through ``ResizingType``.
///
/// When set, it replaces the options `resizingType`, `enlarge`, `crop` and `gravity` (smart aside); `width` and
/// `height` still hold the requested size for the steps after resizing (the `fill` filter's canvas). Flips come
/// before the rotation, as thumbor applies them in its transform and rotates in a filter afterwards.
struct ThumborGeometry: Sendable, Hashable, Encodable {
    /// The fit-in mode.
    var fit: ThumborRequest.Fit = .none
    /// Whether width and height swap for a source of the other orientation (`adaptive-` fit-in).
    var adaptive = false
    /// The requested width.
    var width: ThumborRequest.Side = .pixels(0)
    /// The requested height.
    var height: ThumborRequest.Side = .pixels(0)
    /// The manual crop in source pixels (after `trim`, which moves it), or nil.
    var crop: ThumborRequest.Rectangle?
    /// Where crops centre when no focal point is given.
    var horizontalAlignment: ThumborRequest.HorizontalAlignment = .center
    /// Where crops centre vertically when no focal point is given.
    var verticalAlignment: ThumborRequest.VerticalAlignment = .middle
    /// The `focal(AxB:CxD)` rectangles in source pixels; crops centre on their weighted centre.
    var focalPoints: [ThumborRequest.Rectangle] = []
    /// `smart/`: crops centre on what ``SmartCrop`` finds, unless focal points are given.
    var smart = false
    /// `stretch()`: resize to the requested size without cropping to its aspect ratio.
    var stretch = false
    /// `no_upscale()`: the requested size is at most the source's.
    var noUpscale = false
    /// `upscale()`: after a fit-in, a smaller result is enlarged to fit the box.
    var upscale = false
    /// `proportion(p)`: the result scaled by `p`, 0 < p ≤ 1, last.
    var proportion: Double?
    /// thumbor's `MAX_WIDTH` (0: none): with ``maximumSourceHeight``, what the source is shrunk to right after it
    /// is loaded (``normalizedSize(of:)``).
    var maximumSourceWidth = 0
    /// thumbor's `MAX_HEIGHT` (0: none).
    var maximumSourceHeight = 0
}
