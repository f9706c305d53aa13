/// A thumbor URL taken apart, part by part, as thumbor's own URL grammar (libthumbor's `Url.regex`) reads it:
/// `/(unsafe|%signature)/[debug/][meta/][trim…/][AxB:CxD/][(adaptive-)(full-)fit-in/][-Wx-H/][halign/][valign/][smart/][filters:…/]%image`.
///
/// Built by ``ThumborURLParser``; ``processingOptions()`` maps it onto the one set of ``ProcessingOptions``
/// the pipeline runs.
struct ThumborRequest: Sendable, Hashable {
    /// How the URL is authorised: `unsafe`, or a signature over the rest of the path.
    enum Authority: Sendable, Hashable {
        /// The `unsafe/` segment: no signature (refused unless the server allows unsafe URLs).
        case unsafe
        /// The first segment, percent-decoded: URL-safe base64 of HMAC-SHA1 over ``ThumborRequest/signedPath``.
        case signature(String)
    }

    /// A side of the requested size: pixels (0 for "from the other side and the aspect ratio"), or `orig`.
    enum Side: Sendable, Hashable, Encodable {
        /// This many pixels; 0 keeps the aspect ratio.
        case pixels(Int)
        /// `orig`: the source's own size on this side.
        case original

        /// The pixels, or 0 for ``original`` (for options that only need a number).
        var pixelsOrZero: Int {
            if case .pixels(let value) = self { return value }
            return 0
        }
    }

    /// `fit-in/`, `full-fit-in/` and their adaptive forms; `none` is thumbor's default: crop to the aspect ratio.
    enum Fit: Sendable, Hashable, Encodable {
        /// No fit-in: crop to the requested aspect ratio, then resize to the requested size (enlarging too).
        case none
        /// `fit-in`: fit inside the box, never cropped, never enlarged (unless `upscale()`).
        case fitIn
        /// `full-fit-in`: fit the larger side, so the box is covered; never cropped, enlarged when needed.
        case fullFitIn
    }

    /// Which pixel's colour `trim` removes.
    enum TrimCorner: String, Sendable, Hashable {
        /// `trim` and `trim:top-left`.
        case topLeft = "top-left"
        /// `trim:bottom-right`.
        case bottomRight = "bottom-right"
    }

    /// `trim[:top-left|bottom-right][:tolerance]`.
    struct Trim: Sendable, Hashable {
        /// The pixel whose colour is the border's.
        var corner: TrimCorner
        /// How far a colour may be from the border's and still be trimmed (0 by default).
        var tolerance: Int
    }

    /// `AxB:CxD`: the rectangle, in source pixels, left and top inclusive, right and bottom exclusive.
    struct Rectangle: Sendable, Hashable, Encodable {
        /// The left edge.
        var left: Int
        /// The top edge.
        var top: Int
        /// The right edge.
        var right: Int
        /// The bottom edge.
        var bottom: Int
    }

    /// Horizontal alignment of crops (`left`, `center`, `right`).
    enum HorizontalAlignment: String, Sendable, Hashable, Encodable {
        case left, center, right
    }

    /// Vertical alignment of crops (`top`, `middle`, `bottom`).
    enum VerticalAlignment: String, Sendable, Hashable, Encodable {
        case top, middle, bottom
    }

    /// `unsafe` or the signature.
    var authority: Authority
    /// The path after the signature segment and its `/`, exactly as received: what the signature covers (empty
    /// for `unsafe`).
    var signedPath: String
    /// `debug/`: accepted and ignored (thumbor draws its focal points; this server has none to draw).
    var debug = false
    /// `meta/`: answer with JSON about the operations rather than the image.
    var meta = false
    /// The image part as thumbor's request holds it and `meta/` names it: percent-decoded, then quoted with
    /// Python's `quote` (only `/` kept as it is), no scheme added.
    var requestedImage = ""
    /// `trim…/`, or nil.
    var trim: Trim?
    /// The manual crop `AxB:CxD/`, or nil (also when all four are 0, as thumbor reads it).
    var crop: Rectangle?
    /// The fit-in mode.
    var fit: Fit = .none
    /// Whether the fit-in is adaptive: width and height swap for a source of the other orientation.
    var adaptive = false
    /// The requested width.
    var width: Side = .pixels(0)
    /// The requested height.
    var height: Side = .pixels(0)
    /// A `-` before the width: mirror left to right.
    var flipHorizontal = false
    /// A `-` before the height: mirror top to bottom.
    var flipVertical = false
    /// The horizontal alignment of crops.
    var horizontalAlignment: HorizontalAlignment = .center
    /// The vertical alignment of crops.
    var verticalAlignment: VerticalAlignment = .middle
    /// `smart/`: crop around what a detector finds.
    var smart = false
    /// The filters, in the URL's order; unknown ones included (they are ignored when mapped).
    var filters: [ThumborFilter] = []
    /// The source image's URL as the loader fetches it: percent-decoded, re-quoted as thumbor's HTTP loader
    /// does, `http://` added when it has no `http` scheme.
    var imageURL: String
}
