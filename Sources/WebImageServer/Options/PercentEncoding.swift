/// Percent-decoding of URL path text.
enum PercentEncoding {
    /// Decodes `%XX` escapes (`+` stays a plus). Strictly, as Go's `url.PathUnescape` (imgproxy): nil when a `%` is
    /// not followed by two hex digits or the result is not UTF-8. Leniently, as Python's `unquote` (thumbor): such a
    /// `%` stays as written and bytes that are not UTF-8 become U+FFFD, so there is always a result.
    static func decode(_ text: some StringProtocol, strict: Bool = true) -> String? {
        let input = Array(text.utf8)
        guard input.contains(UInt8(ascii: "%")) else { return String(text) }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.count, let high = Hex.value(of: input[index + 1]),
                let low = Hex.value(of: input[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else if input[index] == UInt8(ascii: "%") && strict {
                return nil
            } else {
                output.append(input[index])
                index += 1
            }
        }
        return strict ? String(validating: output, as: UTF8.self) : String(decoding: output, as: UTF8.self)
    }
}
