/// Why an imgproxy URL was refused: an unknown option, a bad argument, an unknown preset or a malformed path.
///
/// The ``message`` names the option and the reason and is safe to send to the client as it is (arguments are
/// quoted shortened and with anything but printable ASCII replaced); it never contains the source URL.
public struct ImgproxyURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of mistake, for callers that map errors to responses or metrics.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        let name: String
        /// An option name the server does not know.
        public static let unknownOption = Code(name: "unknownOption")
        /// A known option with a missing, extra or malformed argument.
        public static let invalidArgument = Code(name: "invalidArgument")
        /// A `preset` argument naming no configured preset.
        public static let unknownPreset = Code(name: "unknownPreset")
        /// A path without a signature, options or source, or a source that cannot be decoded.
        public static let invalidPath = Code(name: "invalidPath")
        /// A format (option or extension) the server cannot produce.
        public static let unsupportedFormat = Code(name: "unsupportedFormat")
        /// A security option (`max_src_resolution`, …) in a URL of a server that does not allow them.
        public static let securityOptionsNotAllowed = Code(name: "securityOptionsNotAllowed")
        /// An option the server's `IMGPROXY_ALLOWED_PROCESSING_OPTIONS` does not list.
        public static let forbiddenOption = Code(name: "forbiddenOption")
        /// The code's name.
        public var description: String { name }
    }

    /// The kind of mistake.
    public var code: Code
    /// The option concerned (as written in the URL), if any.
    public var option: String?
    /// One line that says what is wrong, for a 400 body.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, option: String? = nil, message: String) {
        self.code = code
        self.option = option
        self.message = message
    }

    /// The message.
    public var description: String { message }

    static func invalidArgument(_ option: String, _ reason: String) -> ImgproxyURLError {
        ImgproxyURLError(.invalidArgument, option: option, message: "invalid argument for option '\(quoted(option))': \(reason)")
    }

    static func invalidPath(_ reason: String) -> ImgproxyURLError {
        ImgproxyURLError(.invalidPath, message: "invalid URL: \(reason)")
    }

    /// `value` cut to 40 characters with anything outside printable ASCII replaced by `?`, for messages.
    static func quoted(_ value: some StringProtocol) -> String {
        let printable = value.unicodeScalars.prefix(40).map { scalar in
            (0x20...0x7E).contains(scalar.value) ? Character(scalar) : "?"
        }
        return String(printable) + (value.unicodeScalars.count > 40 ? "…" : "")
    }
}
