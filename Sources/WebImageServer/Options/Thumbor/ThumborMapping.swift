/// A thumbor URL mapped onto the one set of ``ProcessingOptions`` the pipeline runs, with what thumbor's URL
/// also says about the answer (its filters `max_age` and `format`, `meta/`).
struct ThumborMapping: Sendable {
    /// The processing options.
    var options: ProcessingOptions
    /// The source image's URL.
    var imageURL: String
    /// `max_age(n)`: the `Cache-Control` max-age for this URL, over the server's.
    var maxAge: Int?
    /// Whether a valid `format(…)` filter chose the format (thumbor then does not answer `Vary: Accept`).
    var formatFromFilter = false
    /// `meta/`: JSON about the operations instead of the image.
    var meta = false

    /// The filters that are pixel operations of their own (``PixelFilter``; `fill(auto|blur)` too).
    static let pixelFilterNames: Set<String> = [
        "brightness", "contrast", "rgb", "grayscale", "equalize", "noise", "round_corner", "convolution", "saturation",
    ]

    /// The mapping of `request`; filters with arguments thumbor would not read are ignored, as thumbor ignores them.
    init(_ request: ThumborRequest, parser: ThumborURLParser = ThumborURLParser()) {
        var options = ProcessingOptions()
        var geometry = ThumborGeometry(
            fit: request.fit, adaptive: request.adaptive, width: request.width, height: request.height, crop: request.crop,
            horizontalAlignment: request.horizontalAlignment, verticalAlignment: request.verticalAlignment, smart: request.smart)
        options.width = request.width.pixelsOrZero
        options.height = request.height.pixelsOrZero
        options.flipHorizontal = request.flipHorizontal
        options.flipVertical = request.flipVertical
        if request.smart { options.gravity = Gravity(.smart) }
        if let trim = request.trim {
            var value = ProcessingOptions.Trim(threshold: Double(trim.tolerance))
            value.colorFromBottomRight = trim.corner == .bottomRight
            value.measuresEuclideanDistance = true
            options.trim = value
        }
        self.options = options
        self.imageURL = request.imageURL
        self.meta = request.meta
        var rotation = 0
        for filter in request.filters {
            apply(filter, geometry: &geometry, rotation: &rotation, parser: parser)
        }
        // thumbor rotates counter-clockwise, after its flips; the options rotate clockwise (flips first under
        // thumbor's geometry, so the one turn is the other's inverse).
        self.options.rotate = (360 - rotation % 360) % 360
        self.options.thumborGeometry = geometry
    }

    /// One filter: onto the options, or ignored.
    private mutating func apply(_ filter: ThumborFilter, geometry: inout ThumborGeometry, rotation: inout Int, parser: ThumborURLParser) {
        let arguments = filter.arguments
        switch (filter.name, arguments.count) {
        case ("quality", 1):
            guard let value = ThumborArguments.positive(arguments[0]) else { return }
            options.quality = min(max(value, 1), 100)
        case ("format", 1):
            let name = ThumborArguments.string(arguments[0]).lowercased()
            options.format = Self.formats[name]
            formatFromFilter = options.format != nil
        case ("fill", 1), ("fill", 2):
            let color = arguments[0]
            guard arguments.count == 1 || ThumborArguments.boolean(arguments[1]) != nil else { return }
            if color == "auto" || color == "blur" {
                // The canvas is computed from the image: a pixel operation, after the resize.
                if let fill = Self.pixelFilter(filter) { options.pixelFilters.append(fill) }
            } else if color == "transparent" {
                options.extend = true
            } else if let rgb = ThumborArguments.color(color) {
                options.extend = true
                options.background = rgb
            }
        case ("background_color", 1):
            if let rgb = ThumborArguments.color(arguments[0]) { options.background = rgb }
        case ("blur", 1), ("blur", 2):
            guard let radius = ThumborArguments.positive(arguments[0]), radius > 0 else { return }
            let sigma = arguments.count == 2 ? ThumborArguments.decimal(arguments[1]) : 0
            guard let sigma else { return }
            options.blur = sigma != 0 ? abs(sigma) : Double(radius)
        case ("sharpen", 3):
            guard ThumborArguments.decimal(arguments[0]) != nil, let radius = ThumborArguments.decimal(arguments[1]),
                ThumborArguments.boolean(arguments[2]) != nil else { return }
            options.sharpen = radius > 0 ? radius : nil
        case ("rotate", 1):
            guard let degrees = ThumborArguments.integer(arguments[0]), degrees % 90 == 0 else { return }
            rotation = ((rotation + degrees) % 360 + 360) % 360
        case ("no_upscale", 0):
            geometry.noUpscale = true
        case ("upscale", 0):
            geometry.upscale = true
        case ("stretch", 0):
            geometry.stretch = true
        case ("proportion", 1):
            if let value = ThumborArguments.decimal(arguments[0]) { geometry.proportion = value }
        case ("max_bytes", 1):
            if let bytes = ThumborArguments.positive(arguments[0]) { options.maximumBytes = bytes > 0 ? bytes : nil }
        case ("focal", 1):
            if let square = ThumborArguments.rectangle(ThumborArguments.string(arguments[0])),
                square.right != square.left, square.bottom != square.top {
                geometry.focalPoints.append(square)
            }
        case ("extract_focal", 0):
            if let (image, square) = Self.extractFocal(imageURL, parser: parser) {
                geometry.focalPoints.append(square)
                imageURL = image
            }
        case ("strip_icc", 0):
            options.stripColorProfile = true
        case ("strip_exif", 0):
            options.stripMetadata = true
        case ("max_age", 1):
            if let seconds = ThumborArguments.positive(arguments[0]) { maxAge = seconds }
        case ("watermark", _):
            if let watermark = ThumborWatermark(arguments: arguments) { options.pixelFilters.append(.watermark(watermark)) }
        case (let name, _) where Self.pixelFilterNames.contains(name):
            // A pixel operation of its own, in the URL's order (ignored when thumbor could not read its arguments).
            if let pixelFilter = Self.pixelFilter(filter) { options.pixelFilters.append(pixelFilter) }
        default:
            // An unknown filter, or a known one with arguments thumbor would not read: ignored, as thumbor does.
            break
        }
    }

    /// The names `format(…)` accepts.
    static let formats: [String: OutputFormat] = [
        "png": .png, "jpeg": .jpeg, "jpg": .jpeg, "gif": .gif, "webp": .webp, "avif": .avif, "heic": .heic, "heif": .heic,
    ]

    /// thumbor's `extract_focal()`: when the image URL is itself a thumbor URL with a manual crop (up to ten levels
    /// deep), that crop is a focal point and the inner image is the source.
    static func extractFocal(_ url: String, parser: ThumborURLParser) -> (String, ThumborRequest.Rectangle)? {
        var current = url
        for _ in 0..<10 {
            guard let path = pathAfterHost(current), let inner = try? parser.parse(path: path) else { return nil }
            if let crop = inner.crop { return (inner.imageURL, crop) }
            current = inner.imageURL
        }
        return nil
    }

    /// `url` without its scheme and host (thumbor's `^(https?://)?.*?/`), from its `/`.
    private static func pathAfterHost(_ url: String) -> String? {
        var rest = Substring(url)
        if rest.hasPrefix("http://") { rest = rest.dropFirst(7) } else if rest.hasPrefix("https://") { rest = rest.dropFirst(8) }
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        return String(rest[slash...])
    }
}
