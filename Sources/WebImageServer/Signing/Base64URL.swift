/// URL-safe base64 (RFC 4648 §5) without padding, as imgproxy writes signatures and encoded source URLs.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes bytes without `=` padding.
    static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
            index += 3
        }
        let remaining = input.count - index
        if remaining == 1 {
            let chunk = UInt32(input[index]) << 16
            for shift in [18, 12] { output.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
        } else if remaining == 2 {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            for shift in [18, 12, 6] { output.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes URL-safe base64; trailing `=` are tolerated (imgproxy trims them), any other character outside
    /// the URL-safe alphabet, or a length that cannot come from an encoding (1 mod 4), gives nil.
    static func decode(_ string: some StringProtocol) -> [UInt8]? {
        var symbols = Array(string.utf8)
        while symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
        guard symbols.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(symbols.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            guard let value = sextet(symbol) else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        return output
    }

    private static func sextet(_ symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
