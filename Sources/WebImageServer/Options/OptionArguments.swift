/// One option as written in a URL or a preset: its name and its `:`-separated arguments.
struct RawOption: Sendable, Hashable {
    /// The name as written (`rs`, `resize`, …).
    var name: String
    /// The arguments, empty strings included (`rs:fill::300` has `["fill", "", "300"]`).
    var arguments: [String]
}

/// The argument parsers imgproxy's options share; each throws ``ImgproxyURLError`` naming the option.
enum OptionArguments {
    /// Throws unless there are between `minimum` and `maximum` arguments.
    static func expectCount(_ option: RawOption, _ range: ClosedRange<Int>) throws(ImgproxyURLError) {
        guard range.contains(option.arguments.count) else {
            let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw .invalidArgument(option.name, "expected \(expected) argument\(range.upperBound == 1 ? "" : "s"), got \(option.arguments.count)")
        }
    }

    /// A boolean as Go's `strconv.ParseBool` reads it (imgproxy documents `1`, `t` and `true`); anything else is
    /// an error here, where imgproxy logs a warning and reads false.
    static func bool(_ value: String, option: String) throws(ImgproxyURLError) -> Bool {
        switch value {
        case "1", "t", "T", "true", "TRUE", "True": return true
        case "0", "f", "F", "false", "FALSE", "False": return false
        default: throw .invalidArgument(option, "'\(ImgproxyURLError.quoted(value))' is not a boolean (1, t, true, 0, f, false)")
        }
    }

    /// An integer ≥ 0.
    static func nonNegativeInt(_ value: String, option: String) throws(ImgproxyURLError) -> Int {
        guard let number = Int(value), number >= 0 else {
            throw .invalidArgument(option, "'\(ImgproxyURLError.quoted(value))' is not a whole number ≥ 0")
        }
        return number
    }

    /// Any integer.
    static func int(_ value: String, option: String) throws(ImgproxyURLError) -> Int {
        guard let number = Int(value) else {
            throw .invalidArgument(option, "'\(ImgproxyURLError.quoted(value))' is not a whole number")
        }
        return number
    }

    /// A finite number ≥ 0.
    static func nonNegativeDouble(_ value: String, option: String) throws(ImgproxyURLError) -> Double {
        guard let number = finiteDouble(value), number >= 0 else {
            throw .invalidArgument(option, "'\(ImgproxyURLError.quoted(value))' is not a number ≥ 0")
        }
        return number
    }

    /// A finite number > 0.
    static func positiveDouble(_ value: String, option: String) throws(ImgproxyURLError) -> Double {
        guard let number = finiteDouble(value), number > 0 else {
            throw .invalidArgument(option, "'\(ImgproxyURLError.quoted(value))' is not a number > 0")
        }
        return number
    }

    /// A finite number (no `nan`, `inf` or hexadecimal forms).
    static func double(_ value: String, option: String) throws(ImgproxyURLError) -> Double {
        guard let number = finiteDouble(value) else {
            throw .invalidArgument(option, "'\(ImgproxyURLError.quoted(value))' is not a number")
        }
        return number
    }

    private static func finiteDouble(_ value: String) -> Double? {
        guard !value.isEmpty,
            value.utf8.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || "+-.eE".utf8.contains($0) }),
            let number = Double(value), number.isFinite
        else { return nil }
        return number
    }

    /// A gravity: `type[:x:y]`, `sm` (no offsets) or `fp:x:y` (both offsets, 0–1).
    static func gravity(_ arguments: ArraySlice<String>, option: String) throws(ImgproxyURLError) -> Gravity {
        guard let first = arguments.first, let anchor = Gravity.Anchor(rawValue: first) else {
            let value = arguments.first.map { "'\(ImgproxyURLError.quoted($0))'" } ?? "nothing"
            throw .invalidArgument(option, "\(value) is not a gravity (ce, no, so, ea, we, noea, nowe, soea, sowe, sm, fp)")
        }
        let offsets = Array(arguments.dropFirst())
        switch anchor {
        case .smart:
            guard offsets.isEmpty else { throw .invalidArgument(option, "smart gravity takes no offsets") }
            return Gravity(.smart)
        case .focusPoint:
            guard offsets.count == 2 else { throw .invalidArgument(option, "a focus point needs x and y") }
            let x = try double(offsets[0], option: option)
            let y = try double(offsets[1], option: option)
            guard (0...1).contains(x), (0...1).contains(y) else {
                throw .invalidArgument(option, "focus point coordinates must be between 0 and 1")
            }
            return Gravity(.focusPoint, xOffset: x, yOffset: y)
        default:
            guard offsets.count <= 2 else { throw .invalidArgument(option, "a gravity takes at most two offsets") }
            let x = try offsets.first.map { (value) throws(ImgproxyURLError) in try double(value, option: option) } ?? 0
            let y = try offsets.dropFirst().first.map { (value) throws(ImgproxyURLError) in try double(value, option: option) } ?? 0
            return Gravity(anchor, xOffset: x, yOffset: y)
        }
    }

    /// A format name: one the server encodes, or an error that says whether imgproxy knows it.
    static func format(_ value: String, option: String) throws(ImgproxyURLError) -> OutputFormat {
        if let format = OutputFormat(extension: value) { return format }
        if OutputFormat.knownButUnsupported.contains(value) {
            throw ImgproxyURLError(
                .unsupportedFormat, option: option,
                message: "unsupported format '\(ImgproxyURLError.quoted(value))' for option '\(option)': this server produces jpg, png, gif, webp, avif, heic, jxl, tiff, bmp and ico"
            )
        }
        throw .invalidArgument(option, "'\(ImgproxyURLError.quoted(value))' is not an image format")
    }
}
