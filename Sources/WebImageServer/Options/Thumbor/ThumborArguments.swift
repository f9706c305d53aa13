/// The argument forms of thumbor's filters (`BaseFilter.PositiveNumber`, `Number`, `DecimalNumber`, `Boolean`,
/// `String`), read as its regular expressions read them: nil when an argument does not have the form.
enum ThumborArguments {
    /// `[\d]+`.
    static func positive(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    /// `[-]?[\d]+`.
    static func integer(_ text: String) -> Int? {
        text.hasPrefix("-") ? positive(String(text.dropFirst())).map { -$0 } : positive(text)
    }

    /// `[-]?(?:(?:[\d]+\.?[\d]*)|(?:[\d]*\.?[\d]+))`: digits with at most one point, a sign allowed.
    static func decimal(_ text: String) -> Double? {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.contains(where: { !$0.isEmpty }),
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else { return nil }
        let value = Double(unsigned.hasPrefix(".") ? "0" + unsigned : unsigned.hasSuffix(".") ? unsigned + "0" : String(unsigned))
        return value.map { text.hasPrefix("-") ? -$0 : $0 }
    }

    /// `[Tt]rue|[Ff]alse|1|0`.
    static func boolean(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "1": true
        case "false", "False", "0": false
        default: nil
        }
    }

    /// A string argument without its single quotes.
    static func string(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("'") && text.hasSuffix("'") ? String(text.dropFirst().dropLast()) : text
    }

    /// `AxB:CxD`, as `focal(…)` writes its rectangle.
    static func rectangle(_ text: String) -> ThumborRequest.Rectangle? {
        let corners = text.split(separator: ":", omittingEmptySubsequences: false)
        guard corners.count == 2 else { return nil }
        let first = corners[0].split(separator: "x", omittingEmptySubsequences: false)
        let second = corners[1].split(separator: "x", omittingEmptySubsequences: false)
        guard first.count == 2, second.count == 2, let left = positive(String(first[0])), let top = positive(String(first[1])),
            let right = positive(String(second[0])), let bottom = positive(String(second[1])) else { return nil }
        return ThumborRequest.Rectangle(left: left, top: top, right: right, bottom: bottom)
    }

    /// A colour as thumbor's `fill` and `background_color` take it (Pillow's colour names, or hex digits without
    /// `#`); nil for anything else.
    static func color(_ text: String) -> RGBColor? {
        if let named = names[text.lowercased()] { return named }
        return RGBColor(hex: text)
    }

    /// The common colour names Pillow knows (the CSS basic colours and a few more).
    static let names: [String: RGBColor] = [
        "black": RGBColor(red: 0, green: 0, blue: 0), "white": RGBColor(red: 255, green: 255, blue: 255),
        "red": RGBColor(red: 255, green: 0, blue: 0), "lime": RGBColor(red: 0, green: 255, blue: 0),
        "green": RGBColor(red: 0, green: 128, blue: 0), "blue": RGBColor(red: 0, green: 0, blue: 255),
        "yellow": RGBColor(red: 255, green: 255, blue: 0), "cyan": RGBColor(red: 0, green: 255, blue: 255),
        "aqua": RGBColor(red: 0, green: 255, blue: 255), "magenta": RGBColor(red: 255, green: 0, blue: 255),
        "fuchsia": RGBColor(red: 255, green: 0, blue: 255), "gray": RGBColor(red: 128, green: 128, blue: 128),
        "grey": RGBColor(red: 128, green: 128, blue: 128), "silver": RGBColor(red: 192, green: 192, blue: 192),
        "maroon": RGBColor(red: 128, green: 0, blue: 0), "olive": RGBColor(red: 128, green: 128, blue: 0),
        "navy": RGBColor(red: 0, green: 0, blue: 128), "purple": RGBColor(red: 128, green: 0, blue: 128),
        "teal": RGBColor(red: 0, green: 128, blue: 128), "orange": RGBColor(red: 255, green: 165, blue: 0),
    ]
}
