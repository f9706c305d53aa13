/// What an imgproxy URL asks the server to do with its source image, with imgproxy's defaults.
///
/// Built by ``ImgproxyURLParser`` from the options of a URL (after the `default` preset and any preset the
/// URL names); `nil` in an optional field means "not set by the URL": the server's configuration decides.
public struct ProcessingOptions: Sendable, Hashable, Encodable {
    /// An area cut from the source before resizing (`crop:%width:%height:%gravity`).
    public struct Crop: Sendable, Hashable, Encodable {
        /// The width: pixels when ≥ 1, a fraction of the source width below 1, the full width when 0.
        public var width: Double
        /// The height: pixels when ≥ 1, a fraction of the source height below 1, the full height when 0.
        public var height: Double
        /// Where the area sits; nil means the ``ProcessingOptions/gravity`` option's value.
        public var gravity: Gravity?

        /// Creates a crop area.
        public init(width: Double, height: Double = 0, gravity: Gravity? = nil) {
            self.width = width
            self.height = height
            self.gravity = gravity
        }
    }

    /// How the image is fitted into ``width`` × ``height``; imgproxy's default is ``ResizingType/fit``.
    public var resizingType: ResizingType = .fit
    /// The result width in pixels; 0 means "from the height and the source's aspect ratio".
    public var width: Int = 0
    /// The result height in pixels; 0 means "from the width and the source's aspect ratio".
    public var height: Int = 0
    /// A factor for HiDPI screens that multiplies the result size; greater than 0, default 1.
    public var dpr: Double = 1
    /// Whether an image smaller than the requested size is enlarged; default false.
    public var enlarge: Bool = false
    /// Whether an image smaller than the requested size is extended (padded with the background); default false.
    public var extend: Bool = false
    /// Where an extended image sits in the extended area; default the centre (smart gravity is not allowed).
    public var extendGravity: Gravity = Gravity()
    /// Where crops and fills anchor; default the centre.
    public var gravity: Gravity = Gravity()
    /// An area to cut before resizing, or nil for the whole image.
    public var crop: Crop?
    /// The encoder quality, 1–100; nil for the server's default (imgproxy's `q:0`).
    public var quality: Int?
    /// The result format; nil keeps the source's format (when the server can encode it).
    public var format: OutputFormat?
    /// The sigma of a Gaussian blur applied to the result, greater than 0; nil for none.
    public var blur: Double?
    /// The sigma of a sharpening applied to the result, greater than 0; nil for none.
    public var sharpen: Double?
    /// A clockwise rotation in degrees, a multiple of 90 normalised to 0, 90, 180 or 270.
    public var rotate: Int = 0
    /// Whether the EXIF orientation is applied; nil for the server's default.
    public var autoRotate: Bool?
    /// The colour that fills transparent areas and extensions; nil leaves the background alone.
    public var background: RGBColor?
    /// Whether metadata (EXIF, XMP, IPTC) is removed from the result; nil for the server's default.
    public var stripMetadata: Bool?
    /// Whether the EXIF Artist and Copyright fields stay when metadata is removed; nil for the server's default.
    public var keepCopyright: Bool?
    /// Whether the colours are converted to sRGB and the ICC profile removed; nil for the server's default.
    public var stripColorProfile: Bool?
    /// A string that changes the URL (and so every cache key) without changing the processing.
    public var cacheBuster: String?
    /// The file name for `Content-Disposition`, already decoded; nil takes it from the source URL.
    public var filename: String?
    /// Whether `Content-Disposition` says `attachment` instead of `inline`; nil for the server's default.
    public var returnAttachment: Bool?
    /// The presets applied, in order (the `default` preset first when it exists).
    public var presets: [String] = []
    /// Whether the result is mirrored left to right (`flip:%horizontal:%vertical`), after the rotation.
    public var flipHorizontal: Bool = false
    /// Whether the result is mirrored top to bottom, after the rotation.
    public var flipVertical: Bool = false
    /// The side of the blocks the result is pixelated into (`pixelate:%size`); nil for none.
    public var pixelate: Int?
    /// Space added around the result, in pixels before `dpr` (`padding:%top:%right:%bottom:%left`, CSS-style),
    /// filled with the background.
    public var padding: Padding?
    /// The Unix time after which the URL is refused with 404 (`expires:%timestamp`); nil: it never expires.
    public var expires: Int?
    /// Qualities by output format (`format_quality:%format:%quality:…`), used when ``quality`` is not set.
    public var formatQuality: [OutputFormat: Int] = [:]
    /// The most bytes the result may have (`max_bytes:%bytes`): the quality is lowered until it fits (JPEG,
    /// WebP, AVIF); nil for no limit.
    public var maximumBytes: Int?
    /// Source formats served as they are, without processing, when the result would be in the same format
    /// (`skip_processing:%extension:…`).
    public var skipProcessing: Set<String> = []
    /// Whether the source's bytes are served as they are (`raw:1`).
    public var raw: Bool = false
    /// The least result width in pixels before `dpr` (`min-width:%width`); 0 for none. The image is enlarged to
    /// reach it even without `enlarge`.
    public var minWidth: Int = 0
    /// The least result height in pixels before `dpr` (`min-height:%height`); 0 for none.
    public var minHeight: Int = 0
    /// Factors the result size is multiplied by after `dpr` (`zoom:%x[:%y]`), greater than 0, default 1; unlike
    /// `dpr` they do not scale gravity offsets or padding.
    public var zoomX: Double = 1
    /// The vertical zoom factor.
    public var zoomY: Double = 1
    /// Whether the result is extended to the aspect ratio of the requested width and height
    /// (`extend_aspect_ratio:%extend:%gravity`), padded with the background.
    public var extendAspectRatio: Bool = false
    /// Where the image sits when it is extended to the aspect ratio; default the centre (not smart).
    public var extendAspectRatioGravity: Gravity = Gravity()
    /// The background border to remove before anything else (`trim:%threshold:%color:%equal_hor:%equal_ver`);
    /// nil for none.
    public var trim: Trim?
    /// Whether an embedded thumbnail (HEIC) is decoded instead of the main image (`enforce_thumbnail:1`); nil for
    /// the server's default.
    public var enforceThumbnail: Bool?
    /// The configured watermark over the result (`watermark:%opacity:%position:%x_offset:%y_offset:%scale`);
    /// nil for none.
    public var watermark: Watermark?
    /// This request's own limits (`max_src_resolution`, `max_src_file_size`, `max_animation_frames`,
    /// `max_animation_frame_resolution`, `max_result_dimension`), accepted only when the server allows them.
    public var securityLimits = SecurityLimits()
    /// thumbor's pixel filters (`brightness`, `contrast`, `saturation`, `rgb`, `grayscale`, `equalize`, `noise`,
    /// `round_corner`, `convolution`, `fill(auto)`, `fill(blur)`), applied in this order after the resize and
    /// the crop, blur, sharpen and pixelate, before extend, padding, flattening and the watermark.
    var pixelFilters: [PixelFilter] = []
    /// thumbor's geometry, when a thumbor URL asks for it: it then replaces `resizingType`, `enlarge`, `crop` and
    /// `gravity` (see ``ThumborGeometry``); nil for imgproxy's.
    var thumborGeometry: ThumborGeometry?

    /// Padding on each side, in pixels before `dpr`.
    public struct Padding: Sendable, Hashable, Encodable {
        /// The top side.
        public var top: Int
        /// The right side.
        public var right: Int
        /// The bottom side.
        public var bottom: Int
        /// The left side.
        public var left: Int

        /// Creates padding.
        public init(top: Int, right: Int, bottom: Int, left: Int) {
            (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
        }
    }

    /// A border of one colour cut from the source (`trim`).
    public struct Trim: Sendable, Hashable, Encodable {
        /// How far, 0–255 in any channel, a pixel may be from the border colour and still count as border.
        public var threshold: Double
        /// The border colour; nil takes the top-left pixel's.
        public var color: RGBColor?
        /// Whether the left and right borders cut are made equal (the smaller of the two).
        public var equalHorizontal: Bool
        /// Whether the top and bottom borders cut are made equal (the smaller of the two).
        public var equalVertical: Bool
        /// Whether the border colour, when none is given, is the bottom-right pixel's rather than the top-left's
        /// (thumbor's `trim:bottom-right`).
        var colorFromBottomRight = false
        /// Whether the threshold bounds the Euclidean distance of the RGB colours (thumbor's tolerance) rather than
        /// the largest difference of one channel (imgproxy's).
        var measuresEuclideanDistance = false

        /// Creates a trim.
        public init(threshold: Double, color: RGBColor? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) {
            self.threshold = threshold
            self.color = color
            self.equalHorizontal = equalHorizontal
            self.equalVertical = equalVertical
        }
    }

    /// Creates the options a URL without any option gets.
    public init() {}
}
