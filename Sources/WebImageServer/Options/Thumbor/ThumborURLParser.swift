import Foundation

/// Parses thumbor's image URLs with thumbor's own grammar: the regular expression of libthumbor's `Url` class,
/// which thumbor routes requests with, so that a path means here what it means to thumbor (which optional part
/// a segment is, and where the image URL starts).
///
/// ```swift
/// let request = try ThumborURLParser().parse(path: "/unsafe/fit-in/300x200/filters:quality(70)/example.com/a.jpg")
/// // request.fit == .fitIn, request.width == .pixels(300), request.imageURL == "http://example.com/a.jpg"
/// ```
///
/// The path must be the raw one from the request line (still percent-encoded, no query): the signature covers
/// it byte for byte. Each part is percent-decoded after matching, as thumbor's router does.
struct ThumborURLParser: Sendable {
    /// The longest path accepted, in bytes.
    var maximumPathLength = 16 * 1024

    /// libthumbor's `Url.regex()` with the `unsafe`/signature part, its named groups spelled for ICU.
    static let pattern = "^/?(?:(?:(?<unsafe>unsafe)|(?<hash>.+?))/)?"
        + "(?:(?<debug>debug)/)?"
        + "(?:(?<meta>meta)/)?"
        + "(?:(?<trim>trim(?::(?:top-left|bottom-right))?(?::\\d+)?)/)?"
        + "(?:(?<cropleft>\\d+)x(?<croptop>\\d+):(?<cropright>\\d+)x(?<cropbottom>\\d+)/)?"
        + "(?:(?<adaptive>adaptive-)?(?<full>full-)?(?<fitin>fit-in)/)?"
        + "(?:(?<hflip>-)?(?<width>(?:\\d+|orig))?x(?<vflip>-)?(?<height>(?:\\d+|orig))?/)?"
        + "(?:(?<halign>left|right|center)/)?"
        + "(?:(?<valign>top|bottom|middle)/)?"
        + "(?:(?<smart>smart)/)?"
        + "(?:filters:(?<filters>.+?\\))/)?"
        + "(?<image>.+)$"

    /// The compiled ``pattern``; `NSRegularExpression` matches are safe from any thread.
    private static let expression: NSRegularExpression? = try? NSRegularExpression(pattern: pattern)

    /// Creates a parser.
    init(maximumPathLength: Int = 16 * 1024) {
        self.maximumPathLength = maximumPathLength
    }

    /// Takes a raw request path apart; throws ``ThumborURLError`` saying what is wrong.
    func parse(path: String) throws(ThumborURLError) -> ThumborRequest {
        guard path.utf8.count <= maximumPathLength else { throw .malformed("the path is too long") }
        guard path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformed("the path must be printable ASCII (percent-encode other characters)")
        }
        guard let expression = Self.expression else { throw .malformed("the URL grammar could not be compiled") }
        let range = NSRange(path.startIndex..., in: path)
        guard let match = expression.firstMatch(in: path, range: range) else { throw .malformed("the URL has no image") }
        func group(_ name: String) -> Substring? {
            let found = match.range(withName: name)
            guard found.location != NSNotFound, let bounds = Range(found, in: path) else { return nil }
            return path[bounds]
        }
        let authority: ThumborRequest.Authority
        let signedPath: String
        if group("unsafe") != nil {
            authority = .unsafe
            signedPath = ""
        } else if let hash = group("hash") {
            authority = .signature(Self.unquote(hash))
            signedPath = String(path[path.index(after: hash.endIndex)...])
        } else {
            throw .malformed("the URL has neither a signature nor unsafe")
        }
        guard let image = group("image") else { throw .malformed("the URL has no image") }
        var request = ThumborRequest(authority: authority, signedPath: signedPath, imageURL: Self.imageURL(image))
        request.debug = group("debug") != nil
        request.meta = group("meta") != nil
        request.requestedImage = Self.quote(Self.unquote(image), safe: [UInt8(ascii: "/")])
        if let trim = group("trim") { request.trim = try Self.trim(trim) }
        if let left = group("cropleft"), let top = group("croptop"), let right = group("cropright"), let bottom = group("cropbottom") {
            let crop = ThumborRequest.Rectangle(
                left: try Self.integer(left), top: try Self.integer(top), right: try Self.integer(right), bottom: try Self.integer(bottom))
            // thumbor crops only when some coordinate is above 0.
            if crop.left > 0 || crop.top > 0 || crop.right > 0 || crop.bottom > 0 { request.crop = crop }
        }
        if group("fitin") != nil {
            request.fit = group("full") != nil ? .fullFitIn : .fitIn
            request.adaptive = group("adaptive") != nil
        }
        request.flipHorizontal = group("hflip") != nil
        request.flipVertical = group("vflip") != nil
        if let width = group("width") { request.width = try Self.side(width) }
        if let height = group("height") { request.height = try Self.side(height) }
        if let halign = group("halign") { request.horizontalAlignment = ThumborRequest.HorizontalAlignment(rawValue: String(halign)) ?? .center }
        if let valign = group("valign") { request.verticalAlignment = ThumborRequest.VerticalAlignment(rawValue: String(valign)) ?? .middle }
        request.smart = group("smart") != nil
        if let filters = group("filters") { request.filters = ThumborFilter.list(Substring(Self.unquote(filters))) }
        return request
    }

    /// `trim[:corner][:tolerance]`, as thumbor's request reads it.
    private static func trim(_ text: Substring) throws(ThumborURLError) -> ThumborRequest.Trim {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var trim = ThumborRequest.Trim(corner: .topLeft, tolerance: 0)
        if parts.count > 1 { trim.corner = ThumborRequest.TrimCorner(rawValue: String(parts[1])) ?? .topLeft }
        if parts.count > 2 { trim.tolerance = try integer(parts[2]) }
        // `trim:10` (a tolerance without a corner) reads as thumbor reads it: the corner part is "10", the
        // tolerance missing; thumbor then trims from the top-left with a tolerance of 0.
        return trim
    }

    /// A width or height: digits or `orig`.
    private static func side(_ text: Substring) throws(ThumborURLError) -> ThumborRequest.Side {
        text == "orig" ? .original : .pixels(try integer(text))
    }

    /// Digits as an integer; a number too large for one is refused rather than wrapped.
    private static func integer(_ text: Substring) throws(ThumborURLError) -> Int {
        guard let value = Int(text), value <= 1 << 30 else { throw .malformed("the number '\(ImgproxyURLError.quoted(text))' is too large") }
        return value
    }

    /// The image part as thumbor's HTTP loader fetches it: percent-decoded by the router; then, when it holds no
    /// further escapes, quoted with the loader's safe characters (else kept, already encoded); `http://` added
    /// unless it starts with `http`.
    static func imageURL(_ raw: Substring) -> String {
        let decoded = unquote(raw)
        let twice = unquote(Substring(decoded))
        let url = decoded == twice ? quote(decoded) : decoded
        return url.hasPrefix("http") ? url : "http://" + url
    }

    /// Python's `unquote`: `%XX` escapes decoded, anything else (a `%` without two hex digits) kept; bytes that
    /// are not UTF-8 become U+FFFD.
    static func unquote(_ text: Substring) -> String {
        PercentEncoding.decode(text, strict: false) ?? String(text)
    }

    /// The characters thumbor's HTTP loader leaves unquoted, besides letters, digits and `_.-~`.
    static let loaderSafe = Set("~@#$&()*!+=:;,.?/'".utf8)

    /// Python's `quote(text, safe=…)`: letters, digits, `_.-~` and the `safe` bytes kept, every other byte
    /// `%XX`; by default with the HTTP loader's safe characters.
    static func quote(_ text: String, safe: Set<UInt8> = loaderSafe) -> String {
        var output = ""
        for byte in text.utf8 {
            let isAlphanumeric = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            let isUnreserved = byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
            if isAlphanumeric || isUnreserved || safe.contains(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += String(format: "%%%02X", byte)
            }
        }
        return output
    }
}

/// Why a thumbor URL was refused; thumbor answers each with 400.
struct ThumborURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line that says what is wrong; it never contains the image URL.
    var message: String

    /// A URL that thumbor's grammar does not read.
    static func malformed(_ reason: String) -> ThumborURLError {
        ThumborURLError(message: "invalid thumbor URL: \(reason)")
    }

    /// The message.
    var description: String { message }
}
