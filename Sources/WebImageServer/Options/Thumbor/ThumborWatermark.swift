/// thumbor's `watermark(url, x, y, alpha[, w_ratio[, h_ratio]])` filter as its URL gives it: a second image,
/// fetched like the source, laid over the result at a position or tiled (``ThumborWatermarkOverlay`` draws it).
///
/// The arguments take thumbor 7.8's forms (`thumbor/filters/watermark.py`): `x` and `y` are `[-]N` (pixels from
/// the left or top; with `-`, from the right or bottom), `[-]Np` (a percentage of the image's side), `center` or
/// `repeat`; `alpha` is the watermark's transparency in percent (0 opaque, 100 invisible); each ratio is
/// `[-]N` percent of the image's side the watermark is fitted into, or `none`.
struct ThumborWatermark: Sendable, Hashable, Encodable {
    /// Where the watermark goes along one axis.
    enum Position: Sendable, Hashable, Encodable {
        /// `N` pixels from the start (left or top), or, `fromEnd`, so that its far edge is `N` pixels inside the
        /// end (`-N`; `-0` touches the end).
        case pixels(Int, fromEnd: Bool)
        /// `Np`: `N` percent of the image's side, from the start or, `fromEnd`, as `-N` pixels.
        case percent(Int, fromEnd: Bool)
        /// `center`.
        case center
        /// `repeat`: tiled along this axis.
        case `repeat`
    }

    /// The watermark image's URL, as thumbor's HTTP loader fetches it (``ThumborURLParser/imageURL(_:)``).
    var url: String
    /// The horizontal position.
    var x: Position
    /// The vertical position.
    var y: Position
    /// The transparency in percent: each alpha value is lowered by `255 × transparency / 100` (at most 100 is kept,
    /// which already makes the watermark invisible).
    var transparency: Int
    /// The width the watermark is fitted into, as a fraction of the image's width; nil: not constrained.
    var widthRatio: Double? = nil
    /// The height the watermark is fitted into, as a fraction of the image's height; nil: not constrained.
    var heightRatio: Double? = nil
}

extension ThumborWatermark {
    /// The largest position or percentage kept; anything beyond is as far off any image.
    static let largestPosition = 1 << 40

    /// The filter of `arguments` (`url, x, y, alpha[, w_ratio[, h_ratio]]`), or nil when thumbor would not read
    /// them (so the filter is ignored, as thumbor ignores it).
    init?(arguments: [String]) {
        guard (4...6).contains(arguments.count), !arguments[0].isEmpty,
            let x = Self.position(arguments[1]), let y = Self.position(arguments[2]),
            let transparency = ThumborArguments.positive(arguments[3]) ?? Self.largeDigits(arguments[3]) else { return nil }
        let parsed = arguments.dropFirst(4).map(Self.ratio)
        guard parsed.allSatisfy({ $0 != nil }) else { return nil }
        let ratios: [Double?] = parsed.map { $0 ?? nil }
        self.url = ThumborURLParser.imageURL(Substring(ThumborArguments.string(arguments[0])))
        self.x = x
        self.y = y
        self.transparency = min(transparency, 100)
        self.widthRatio = ratios.first ?? nil
        self.heightRatio = ratios.dropFirst().first ?? nil
    }

    /// `(?:-?\d+p?)|center|repeat`; digits beyond ``largestPosition`` are kept as it.
    static func position(_ text: String) -> Position? {
        switch text {
        case "center": return .center
        case "repeat": return .repeat
        default: break
        }
        let fromEnd = text.hasPrefix("-")
        var digits = Substring(fromEnd ? String(text.dropFirst()) : text)
        let isPercent = digits.hasSuffix("p")
        if isPercent { digits = digits.dropLast() }
        guard let value = ThumborArguments.positive(String(digits)) ?? largeDigits(String(digits)) else { return nil }
        let bounded = min(value, largestPosition)
        return isPercent ? .percent(bounded, fromEnd: fromEnd) : .pixels(bounded, fromEnd: fromEnd)
    }

    /// `(?:-?\d+)|none` as a fraction (`50` → 0.5); `none` and `0` are nil, as thumbor treats them. The outer
    /// optional is nil when the text has neither form.
    static func ratio(_ text: String) -> Double?? {
        if text == "none" { return .some(nil) }
        guard let value = ThumborArguments.integer(text) ?? largeDigits(text).map({ _ in Int.max }) else { return nil }
        return .some(value == 0 ? nil : Double(value) / 100)
    }

    /// ``largestPosition`` for digits too many for an `Int`, so that a huge number reads as a far one.
    private static func largeDigits(_ text: String) -> Int? {
        !text.isEmpty && text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) ? largestPosition : nil
    }
}
