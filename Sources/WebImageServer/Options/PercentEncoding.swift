/// Strict percent-decoding of URL path text, as Go's `url.PathUnescape` does it (`+` stays a plus).
enum PercentEncoding {
    /// Decodes `%XX` escapes; nil when a `%` is not followed by two hex digits or the result is not UTF-8.
    static func decode(_ text: some StringProtocol) -> String? {
        let input = Array(text.utf8)
        guard input.contains(UInt8(ascii: "%")) else { return String(text) }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%") {
                guard index + 2 < input.count, let high = Hex.value(of: input[index + 1]),
                    let low = Hex.value(of: input[index + 2])
                else { return nil }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(input[index])
                index += 1
            }
        }
        return String(validating: output, as: UTF8.self)
    }
}
