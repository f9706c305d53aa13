extension ProcessingOptions {
    /// imgproxy's security options, given by a URL: each can only lower the server's own limit (a value above it,
    /// or 0, keeps the server's). A URL may use them only when the server allows security options
    /// (`IMGPROXY_ALLOW_SECURITY_OPTIONS`); otherwise it is refused with 403.
    public struct SecurityLimits: Sendable, Hashable, Encodable {
        /// `max_src_resolution`: the most pixels the source may have.
        public var maximumSourcePixelCount: Int?
        /// `max_src_file_size`: the most bytes the source may have.
        public var maximumSourceBytes: Int?
        /// `max_animation_frames`: the most frames of an animation processed.
        public var maximumAnimationFrames: Int?
        /// `max_animation_frame_resolution`: the most pixels one frame of an animation may have.
        public var maximumAnimationFramePixelCount: Int?
        /// `max_result_dimension`: the longest side the result may have.
        public var maximumResultDimension: Int?

        /// No limit given.
        public init() {}

        /// Whether the URL gave none of them.
        public var isEmpty: Bool { self == SecurityLimits() }
    }

    /// Applies one security option by its long or short name; false when `name` is not one.
    mutating func applySecurityLimit(_ option: RawOption) throws(ImgproxyURLError) -> Bool {
        let name = option.name
        switch name {
        case "max_src_resolution", "msr":
            try OptionArguments.expectCount(option, 1...1)
            securityLimits.maximumSourcePixelCount = try Self.pixelCount(megapixels: option.arguments[0], option: name)
        case "max_src_file_size", "msfs":
            try OptionArguments.expectCount(option, 1...1)
            securityLimits.maximumSourceBytes = try OptionArguments.nonNegativeInt(option.arguments[0], option: name)
        case "max_animation_frames", "maf":
            try OptionArguments.expectCount(option, 1...1)
            let frames = try OptionArguments.nonNegativeInt(option.arguments[0], option: name)
            guard frames > 0 else { throw .invalidArgument(name, "the frame count must be at least 1") }
            securityLimits.maximumAnimationFrames = frames
        case "max_animation_frame_resolution", "mafr":
            try OptionArguments.expectCount(option, 1...1)
            securityLimits.maximumAnimationFramePixelCount = try Self.pixelCount(megapixels: option.arguments[0], option: name)
        case "max_result_dimension", "mrd":
            try OptionArguments.expectCount(option, 1...1)
            securityLimits.maximumResultDimension = try OptionArguments.nonNegativeInt(option.arguments[0], option: name)
        default:
            return false
        }
        return true
    }

    /// Megapixels (a number ≥ 0, at most 100,000) as a pixel count.
    private static func pixelCount(megapixels text: String, option: String) throws(ImgproxyURLError) -> Int {
        let megapixels = try OptionArguments.nonNegativeDouble(text, option: option)
        guard megapixels <= 100_000 else { throw .invalidArgument(option, "at most 100000 megapixels") }
        return Int(megapixels * 1_000_000)
    }
}

extension Optional<Int> {
    /// The lower of a configured limit and a URL's (a URL's 0 or nil keeps the configured one).
    func lowered(by requested: Int?) -> Int? {
        guard let requested, requested > 0 else { return self }
        return Swift.min(self ?? requested, requested)
    }
}
