/// An IPv4 or IPv6 address: parsed strictly from text (URL hosts) or built from the bytes of a resolved address.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 address, most significant byte first.
    case v4(UInt32)
    /// An IPv6 address, most significant byte first.
    case v6(UInt128)

    /// Builds an address from its network-order bytes: 4 for IPv4, 16 for IPv6 (as in `sockaddr_in(6)`).
    public init?(bytes: some Collection<UInt8>) {
        switch bytes.count {
        case 4: self = .v4(bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        case 16: self = .v6(bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) })
        default: return nil
        }
    }

    /// Parses dotted-decimal IPv4 (exactly four parts, no leading zeros) or IPv6 text (with `::` and an optional
    /// dotted IPv4 tail, without brackets or a zone); nil for anything else, including the short, octal and
    /// hexadecimal IPv4 forms `inet_aton` accepts, so that no spelling of an address slips past a check.
    public init?(_ text: some StringProtocol) {
        if let v4 = Self.parseIPv4(Substring(text)) {
            self = .v4(v4)
        } else if let v6 = Self.parseIPv6(Substring(text)) {
            self = .v6(v6)
        } else {
            return nil
        }
    }

    /// The address in its usual text form (IPv6 in full, without `::` compression).
    public var description: String {
        switch self {
        case .v4(let value):
            return (0..<4).map { String(value >> UInt32(24 - 8 * $0) & 0xFF) }.joined(separator: ".")
        case .v6(let value):
            return (0..<8).map { String(UInt16(truncatingIfNeeded: value >> UInt128(112 - 16 * $0)), radix: 16) }.joined(separator: ":")
        }
    }

    static func parseIPv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                part == "0" || part.first != "0", let octet = UInt8(part)
            else { return nil }
            value = value << 8 | UInt32(octet)
        }
        return value
    }

    static func parseIPv6(_ text: Substring) -> UInt128? {
        guard text.utf8.count >= 2, text.utf8.count <= 45 else { return nil }
        let halves = text.split(separator: "::", maxSplits: 2, omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        guard let head = groups(halves[0], allowIPv4Tail: halves.count == 1) else { return nil }
        var tail: [UInt16] = []
        if halves.count == 2 {
            guard let parsed = groups(halves[1], allowIPv4Tail: true) else { return nil }
            tail = parsed
            guard head.count + tail.count <= 7 else { return nil }
        } else {
            guard head.count == 8 else { return nil }
        }
        let all = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        return all.reduce(UInt128(0)) { $0 << 16 | UInt128($1) }
    }

    /// Colon-separated groups of 1–4 hex digits; the last may be dotted IPv4 (two groups).
    private static func groups(_ text: Substring, allowIPv4Tail: Bool) -> [UInt16]? {
        if text.isEmpty { return [] }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var result: [UInt16] = []
        for (index, part) in parts.enumerated() {
            if index == parts.count - 1, allowIPv4Tail, part.contains(".") {
                guard let v4 = parseIPv4(part) else { return nil }
                result += [UInt16(v4 >> 16), UInt16(v4 & 0xFFFF)]
            } else {
                guard (1...4).contains(part.utf8.count), part.utf8.allSatisfy({ Hex.value(of: $0) != nil }),
                    let group = UInt16(part, radix: 16)
                else { return nil }
                result.append(group)
            }
        }
        return result
    }
}
