/// Parses imgproxy's processing URLs: `/%signature/%options/plain/%source_url@%extension` and
/// `/%signature/%options/%base64url_source.%extension`.
///
/// Options are `/`-separated segments with `:`-separated arguments; the first segment without a `:` starts
/// the source. The path must be the raw one from the request line (still percent-encoded, no query), because
/// the signature covers it byte for byte.
///
/// ```swift
/// let parser = ImgproxyURLParser()
/// let request = try parser.parse(path: "/_/rs:fill:300:200/g:sm/plain/https://example.com/a.jpg@webp")
/// // request.options.resizingType == .fill, request.options.format == .webp
/// ```
public struct ImgproxyURLParser: Sendable {
    /// The presets URLs may name; a preset named `default` applies to every URL first.
    public var presets: ProcessingPresets

    /// The longest path accepted, in bytes.
    public var maximumPathLength: Int

    /// What separates an option's name and arguments (imgproxy's `IMGPROXY_ARGUMENTS_SEPARATOR`); `:` by default.
    public var argumentsSeparator: Character

    /// Whether the options part is only preset names (`/%signature/%preset1:%preset2/plain/…`: imgproxy's
    /// `IMGPROXY_ONLY_PRESETS`); an unknown preset is then a 404 like an unknown option.
    public var onlyPresets: Bool

    /// Whether a base64 source's last segment is a file name to ignore (`/%base64_source/puppy.jpg`: imgproxy's
    /// `IMGPROXY_BASE64_URL_INCLUDES_FILENAME`).
    public var base64SourceIncludesFilename: Bool

    /// Whether URLs (and presets) may use the security options (imgproxy's `IMGPROXY_ALLOW_SECURITY_OPTIONS`);
    /// when not, a URL with one is refused (``ImgproxyURLError/Code/securityOptionsNotAllowed``).
    public var allowsSecurityOptions: Bool

    /// The option names a URL may use, every name of each (`IMGPROXY_ALLOWED_PROCESSING_OPTIONS`); empty: all.
    /// Presets may use any option.
    public var allowedOptions: Set<String> = []

    /// Creates a parser.
    public init(
        presets: ProcessingPresets = ProcessingPresets(), maximumPathLength: Int = 16 * 1024, argumentsSeparator: Character = ":",
        onlyPresets: Bool = false, base64SourceIncludesFilename: Bool = false, allowsSecurityOptions: Bool = false
    ) {
        self.presets = presets
        self.maximumPathLength = maximumPathLength
        self.argumentsSeparator = argumentsSeparator
        self.onlyPresets = onlyPresets
        self.base64SourceIncludesFilename = base64SourceIncludesFilename
        self.allowsSecurityOptions = allowsSecurityOptions
    }

    /// Takes a raw request path apart, its options applied over `defaults` (what the request's headers give);
    /// throws ``ImgproxyURLError`` saying what is wrong.
    public func parse(path: some StringProtocol, defaults: ProcessingOptions = ProcessingOptions()) throws(ImgproxyURLError) -> ImgproxyRequest {
        let path = String(path)
        guard path.utf8.count <= maximumPathLength else { throw .invalidPath("the path is too long") }
        // Request paths are ASCII (anything else is percent-encoded), so characters and bytes split alike.
        guard path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidPath("the path must be printable ASCII (percent-encode other characters)")
        }
        guard path.hasPrefix("/") else { throw .invalidPath("the path must start with '/'") }
        guard let (signature, signedPath) = Self.splitSignature(path), !signature.isEmpty, !signedPath.isEmpty else {
            throw .invalidPath("expected /%signature/%options/%source")
        }
        let rest = signedPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false)[...]
        if let first = rest.first, ResizingType(rawValue: String(first)) != nil {
            throw .invalidPath("the deprecated basic URL format (/%resizing_type/%width/…) is not supported")
        }

        var options = defaults
        if presets.options(named: "default") != nil {
            try options.applyPreset("default", presets: presets, chain: [], option: "preset")
        }
        var sourceStart = rest.endIndex
        if onlyPresets, let first = rest.first {
            for name in first.split(separator: argumentsSeparator) {
                try options.applyPreset(String(name), presets: presets, chain: [], option: "preset")
            }
            sourceStart = rest.index(after: rest.startIndex)
        } else {
            for index in rest.indices {
                let parts = rest[index].split(separator: argumentsSeparator, omittingEmptySubsequences: false).map(String.init)
                if parts.count == 1 {
                    sourceStart = index
                    break
                }
                if !allowedOptions.isEmpty, !allowedOptions.contains(parts[0]) {
                    throw ImgproxyURLError(.forbiddenOption, option: parts[0], message: "the processing option '\(ImgproxyURLError.quoted(parts[0]))' is not allowed")
                }
                try options.apply(RawOption(name: parts[0], arguments: Array(parts.dropFirst())), presets: presets)
            }
        }
        guard allowsSecurityOptions || options.securityLimits.isEmpty else {
            throw ImgproxyURLError(.securityOptionsNotAllowed, message: "security processing options are not allowed")
        }
        let sourceSegments = rest[sourceStart...]
        guard !sourceSegments.isEmpty else { throw .invalidPath("the source URL is missing") }

        let source: String
        let encoding: ImgproxyRequest.SourceEncoding
        let extensionName: Substring?
        if sourceSegments.first == "plain", sourceSegments.count > 1 {
            (source, extensionName) = try Self.decodePlain(sourceSegments.dropFirst().joined(separator: "/"))
            encoding = .plain
        } else {
            let segments = base64SourceIncludesFilename && sourceSegments.count > 1 ? sourceSegments.dropLast() : sourceSegments
            (source, extensionName) = try Self.decodeBase64(segments.joined())
            encoding = .base64
        }
        if let extensionName, !extensionName.isEmpty {
            options.format = try OptionArguments.format(String(extensionName), option: "extension")
        }
        return ImgproxyRequest(signature: String(signature), signedPath: String(signedPath), options: options, sourceURL: source, sourceEncoding: encoding)
    }

    /// The first segment of a path starting with `/`, and the rest from its `/` (what the signature covers);
    /// nil when the path has no second `/`.
    public static func splitSignature(_ path: String) -> (signature: Substring, signedPath: Substring)? {
        let afterSlash = path.dropFirst()
        guard let slash = afterSlash.firstIndex(of: "/") else { return nil }
        return (afterSlash[..<slash], afterSlash[slash...])
    }

    /// `%source_url@%extension`: split at `@` (a literal `@` in the source must be `%40`), then percent-decoded.
    private static func decodePlain(_ text: String) throws(ImgproxyURLError) -> (String, Substring?) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw .invalidPath("more than one '@' in a plain source URL (escape '@' as %40)") }
        guard !parts[0].isEmpty else { throw .invalidPath("the source URL is empty") }
        guard let decoded = PercentEncoding.decode(parts[0]) else {
            throw .invalidPath("the plain source URL is not correctly percent-encoded")
        }
        return (decoded, parts.count == 2 ? parts[1] : nil)
    }

    /// `%base64url_source.%extension`, the segments already joined.
    private static func decodeBase64(_ text: String) throws(ImgproxyURLError) -> (String, Substring?) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw .invalidPath("more than one '.' after a base64 source URL") }
        guard !parts[0].isEmpty else { throw .invalidPath("the source URL is empty") }
        guard let bytes = Base64URL.decode(parts[0]), let decoded = String(validating: bytes, as: UTF8.self), !decoded.isEmpty else {
            throw .invalidPath("the source URL is not URL-safe base64 of UTF-8 text")
        }
        return (decoded, parts.count == 2 ? parts[1] : nil)
    }
}
