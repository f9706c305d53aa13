extension ProcessingOptions {
    /// imgproxy's `watermark` option: how the configured watermark image is laid over the result.
    public struct Watermark: Sendable, Hashable, Encodable {
        /// Where the watermark goes: at a gravity, or tiled over the whole result.
        public enum Position: Sendable, Hashable, Encodable {
            /// One watermark at an edge, a corner or the centre, moved by the offsets.
            case gravity(Gravity.Anchor)
            /// Tiles over the whole result (`re`), the offsets being the space between them.
            case replicate
        }

        /// The opacity, 0–1, multiplied by the configured base opacity.
        public var opacity: Double
        /// Where the watermark goes; default the centre.
        public var position: Position
        /// The horizontal offset (or tile spacing): pixels times `dpr` when its magnitude is ≥ 1, else a fraction
        /// of the result's width.
        public var xOffset: Double
        /// The vertical offset (or tile spacing), as ``xOffset`` for the height.
        public var yOffset: Double
        /// The watermark's size as a fraction of the result's (it is fitted into that box); 0 keeps its own size.
        public var scale: Double

        /// Creates a watermark placement; imgproxy's default is the centre, no offsets, the watermark's own size.
        public init(opacity: Double, position: Position = .gravity(.center), xOffset: Double = 0, yOffset: Double = 0, scale: Double = 0) {
            self.opacity = opacity
            self.position = position
            self.xOffset = xOffset
            self.yOffset = yOffset
            self.scale = scale
        }
    }

    /// Applies `%opacity[:%position[:%x_offset[:%y_offset[:%scale]]]]`: empty arguments keep the values a preset
    /// set; an opacity of 0 turns the watermark off, as in imgproxy.
    mutating func applyWatermark(_ arguments: [String], option: String) throws(ImgproxyURLError) {
        let opacity = try OptionArguments.nonNegativeDouble(arguments[0], option: option)
        guard opacity <= 1 else { throw .invalidArgument(option, "the opacity must be between 0 and 1") }
        var placement = watermark ?? Watermark(opacity: opacity)
        placement.opacity = opacity
        if arguments.count > 1, !arguments[1].isEmpty { placement.position = try Self.watermarkPosition(arguments[1], option: option) }
        if arguments.count > 2, !arguments[2].isEmpty { placement.xOffset = try OptionArguments.double(arguments[2], option: option) }
        if arguments.count > 3, !arguments[3].isEmpty { placement.yOffset = try OptionArguments.double(arguments[3], option: option) }
        if arguments.count > 4, !arguments[4].isEmpty { placement.scale = try OptionArguments.nonNegativeDouble(arguments[4], option: option) }
        watermark = opacity > 0 ? placement : nil
    }

    /// `re`, or a gravity without smart and focus point.
    private static func watermarkPosition(_ value: String, option: String) throws(ImgproxyURLError) -> Watermark.Position {
        if value == "re" { return .replicate }
        guard let anchor = Gravity.Anchor(rawValue: value), anchor != .smart, anchor != .focusPoint else {
            throw .invalidArgument(option, "'\(ImgproxyURLError.quoted(value))' is not a watermark position (ce, no, so, ea, we, noea, nowe, soea, sowe, re)")
        }
        return .gravity(anchor)
    }
}
