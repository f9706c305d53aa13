/// What kind of network an IP address belongs to, for deciding whether the server may fetch from it.
///
/// IPv6 addresses that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`,
/// NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`) take the class of that IPv4 address, so no
/// IPv6 spelling reaches a refused IPv4 network.
public enum AddressClass: String, Sendable, Hashable, CaseIterable {
    /// Anything not listed below: a globally routable address.
    case `public`
    /// `127.0.0.0/8` and `::1`.
    case loopback
    /// RFC 1918: `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`.
    case privateNetwork
    /// `169.254.0.0/16` (where cloud metadata services live) and `fe80::/10`.
    case linkLocal
    /// RFC 6598's shared address space for carrier-grade NAT, `100.64.0.0/10`.
    case sharedAddressSpace
    /// IPv6 unique-local `fc00::/7` and the deprecated site-local `fec0::/10`.
    case uniqueLocal
    /// `224.0.0.0/4` and `ff00::/8`.
    case multicast
    /// `0.0.0.0/8` (which Linux connects to the local host) and `::`.
    case unspecified
    /// Other special-purpose ranges: `240.0.0.0/4` and broadcast, `192.0.0.0/24`, `198.18.0.0/15`,
    /// `100::/64`, `2001:db8::/32`, the local-use NAT64 prefix `64:ff9b:1::/48`.
    case reserved

    /// The class in words, for messages: `loopback`, `private network`, `link-local`, …
    public var name: String {
        switch self {
        case .public: "public"
        case .loopback: "loopback"
        case .privateNetwork: "private network"
        case .linkLocal: "link-local"
        case .sharedAddressSpace: "shared (carrier-grade NAT)"
        case .uniqueLocal: "unique-local"
        case .multicast: "multicast"
        case .unspecified: "unspecified"
        case .reserved: "reserved"
        }
    }

    /// The class of an address (for a resolved address at connect time as much as for a literal host).
    public init(_ address: IPAddress) {
        switch address {
        case .v4(let value): self = Self.classify(v4: value)
        case .v6(let value): self = Self.classify(v6: value)
        }
    }

    private static func classify(v4 value: UInt32) -> AddressClass {
        func within(_ network: UInt32, _ prefix: Int) -> Bool {
            let mask: UInt32 = prefix == 0 ? 0 : ~UInt32(0) << UInt32(32 - prefix)
            return value & mask == network
        }
        if within(0x0000_0000, 8) { return .unspecified }
        if within(0x7F00_0000, 8) { return .loopback }
        if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) { return .privateNetwork }
        if within(0xA9FE_0000, 16) { return .linkLocal }
        if within(0x6440_0000, 10) { return .sharedAddressSpace }
        if within(0xE000_0000, 4) { return .multicast }
        if within(0xF000_0000, 4) || within(0xC000_0000, 24) || within(0xC612_0000, 15) { return .reserved }
        return .public
    }

    private static func classify(v6 value: UInt128) -> AddressClass {
        func within(_ network: UInt128, _ prefix: Int) -> Bool {
            let mask: UInt128 = prefix == 0 ? 0 : ~UInt128(0) << UInt128(128 - prefix)
            return value & mask == network
        }
        let low32 = UInt32(truncatingIfNeeded: value)
        if value == 0 { return .unspecified }
        if value == 1 { return .loopback }
        if within(0xFFFF_0000_0000, 96) { return classify(v4: low32) }  // ::ffff:a.b.c.d
        if within(0, 96) { return classify(v4: low32) }  // ::a.b.c.d (deprecated IPv4-compatible)
        if within(UInt128(0x0064_FF9B) << 96, 96) { return classify(v4: low32) }  // NAT64 well-known prefix
        if within(UInt128(0x0064_FF9B_0001) << 80, 48) { return .reserved }  // local-use NAT64: embedding varies
        if within(UInt128(0x2002) << 112, 16) { return classify(v4: UInt32(truncatingIfNeeded: value >> 80)) }  // 6to4
        if within(UInt128(0x2001_0000) << 96, 32) { return classify(v4: ~low32) }  // Teredo client, obfuscated
        if within(UInt128(0xFC) << 120, 7) { return .uniqueLocal }
        if within(UInt128(0xFE80) << 112, 10) { return .linkLocal }
        if within(UInt128(0xFEC0) << 112, 10) { return .uniqueLocal }
        if within(UInt128(0xFF) << 120, 8) { return .multicast }
        if within(UInt128(0x0100) << 112, 64) || within(UInt128(0x2001_0DB8) << 96, 32) { return .reserved }
        return .public
    }
}
