import WebImageKit

/// One of thumbor's pixel filters, applied after the resize in the order the URL lists them
/// (``ProcessingOptions/pixelFilters``), with thumbor 7.8's arithmetic (its C filters in `thumbor/ext/filters`).
///
/// The arguments are thumbor's, in its units; ``validate()`` says whether they are in range, and the
/// transformer refuses a filter that is not before touching any pixel.
enum PixelFilter: Sendable, Hashable, Encodable {
    /// `brightness(amount)`: adds `255 × amount / 100` to red, green and blue; amount −100…100.
    case brightness(Int)
    /// `contrast(amount)`: scales each channel's distance from 128 by `(amount + 100)² / 10000`; amount −100…100.
    case contrast(Int)
    /// `saturation(factor)`: moves each pixel away from (factor > 1) or towards (factor < 1) its perceived
    /// brightness; 1 keeps it, 0 is grey; any factor finite as a `Float` (thumbor's C takes it as one).
    case saturation(Double)
    /// `rgb(r, g, b)`: adds `255 × amount / 100` to each channel; each amount −100…100.
    case rgb(red: Int, green: Int, blue: Int)
    /// `grayscale()`: the luma of each pixel (ITU-R 601, as Pillow's `L` conversion), alpha kept.
    case grayscale
    /// `equalize()`: histogram equalisation of each channel.
    case equalize
    /// `noise(amount[, seed])`: adds the same random value in `−amount/2 ..< amount/2` to the three channels of
    /// each pixel, drawn from glibc's `random()` after `srandom(seed)`; amount 0…100. A seed of 0 (thumbor's
    /// default, which does not reseed) is glibc's default seed, 1, so the result is the same for the same
    /// options and can be cached.
    case noise(amount: Int, seed: UInt32)
    /// `round_corner(a|b, r, g, b[, transparent])`.
    case roundCorner(RoundCorner)
    /// `convolution(items, columns, normalize)`.
    case convolution(Convolution)
    /// `fill(auto[, fill_transparent])` and `fill(blur[, fill_transparent])`.
    case fill(Fill)
    /// `watermark(url, x, y, alpha[, w_ratio, h_ratio])`: a second image over the result
    /// (``ThumborWatermarkOverlay``), its pixels fetched by the pipeline before the transform.
    case watermark(ThumborWatermark)

    /// thumbor's `round_corner`: the corners outside an ellipse of radii `horizontalRadius` × `verticalRadius`
    /// painted with `color`, or made transparent.
    struct RoundCorner: Sendable, Hashable, Encodable {
        /// The ellipse's horizontal radius in pixels (`a`), at most half the width.
        var horizontalRadius: Int
        /// The ellipse's vertical radius in pixels (`b`; `a` when the URL gives one radius), at most half the height.
        var verticalRadius: Int
        /// The colour painted outside the corners.
        var color: RGBColor
        /// Whether the corners become transparent (alpha 0) instead of opaque `color`.
        var transparent: Bool
    }

    /// thumbor's `convolution`: a kernel of ``columns`` columns, its items row by row.
    struct Convolution: Sendable, Hashable, Encodable {
        /// The most columns, and the most rows, a URL's kernel may have.
        static let maximumSide = 9

        /// The kernel's weights, row by row.
        var items: [Double]
        /// The number of columns.
        var columns: Int
        /// Whether the weights are divided by their sum (when it is not 0).
        var normalize: Bool
    }

    /// thumbor's `fill` with a colour computed from the image: the image centred on a canvas of the requested size.
    struct Fill: Sendable, Hashable, Encodable {
        /// What the canvas shows around the image.
        enum Background: Sendable, Hashable, Encodable {
            /// `auto`: the average colour of all the image's pixels, as thumbor computes it.
            case average
            /// `blur`: the image blurred (thumbor's blur of radius 50) and stretched to the canvas.
            case blur
        }

        /// What the canvas shows.
        var background: Background
        /// `fill_transparent`: whether the image's transparent pixels are composited over the canvas
        /// (true) or replace it (false, thumbor's default).
        var mergesTransparency: Bool = false
    }

    /// The bounds of a brightness, contrast or rgb amount.
    static let amountRange = -100...100

    /// Throws when an argument is outside the range thumbor's filter is defined for.
    func validate() throws(ImageProcessingError) {
        switch self {
        case .brightness(let amount), .contrast(let amount):
            try Self.check(Self.amountRange.contains(amount), "the amount must be between -100 and 100")
        case .rgb(let red, let green, let blue):
            try Self.check([red, green, blue].allSatisfy(Self.amountRange.contains), "each amount must be between -100 and 100")
        case .saturation(let factor):
            try Self.check(Float(factor).isFinite, "the saturation factor must be a finite number within Float's range")
        case .noise(let amount, _):
            try Self.check((0...100).contains(amount), "the noise amount must be between 0 and 100")
        case .roundCorner(let corner):
            try Self.check(corner.horizontalRadius >= 0 && corner.verticalRadius >= 0, "the radii must not be negative")
        case .convolution(let kernel):
            try kernel.validate()
        case .watermark(let watermark):
            try Self.check([watermark.widthRatio, watermark.heightRatio].allSatisfy { ($0 ?? 0) >= 0 }, "the watermark's ratios must not be negative")
        case .grayscale, .equalize, .fill:
            break
        }
    }

    /// The name errors give the filters.
    static let errorKey = "thumbor filter"

    /// Throws an ``ImageProcessingError`` saying `message` unless `condition` holds.
    static func check(_ condition: Bool, _ message: String) throws(ImageProcessingError) {
        guard condition else { throw ImageProcessingError(transformerKey: errorKey, message) }
    }
}

extension PixelFilter.Convolution {
    /// The number of rows.
    var rows: Int { columns > 0 ? items.count / columns : 0 }

    /// Throws unless the kernel is a whole number of rows, both sides odd (so it has a centre) and at most
    /// ``maximumSide``, and every weight finite: thumbor's conditions, plus the size cap.
    func validate() throws(ImageProcessingError) {
        let side = Self.maximumSide
        try PixelFilter.check((1...side).contains(columns), "the kernel must have 1 to \(side) columns")
        try PixelFilter.check(items.count.isMultiple(of: columns), "the kernel's \(items.count) items do not fill rows of \(columns)")
        try PixelFilter.check((1...side).contains(rows), "the kernel must have 1 to \(side) rows")
        try PixelFilter.check(!columns.isMultiple(of: 2) && !rows.isMultiple(of: 2), "the kernel's sides must be odd")
        try PixelFilter.check(items.allSatisfy(\.isFinite), "the kernel's items must be finite numbers")
    }
}
