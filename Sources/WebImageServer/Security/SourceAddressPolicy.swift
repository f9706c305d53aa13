/// Which address classes, besides public ones, the server may fetch sources from; by default none.
public struct SourceAddressPolicy: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt16

    /// Creates a policy from raw bits.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Loopback addresses (`--allow-loopback-sources`).
    public static let loopback = SourceAddressPolicy(rawValue: 1 << 0)
    /// RFC 1918 private networks (`--allow-private-sources`).
    public static let privateNetwork = SourceAddressPolicy(rawValue: 1 << 1)
    /// Link-local addresses, cloud metadata services included.
    public static let linkLocal = SourceAddressPolicy(rawValue: 1 << 2)
    /// The carrier-grade NAT range `100.64.0.0/10`.
    public static let sharedAddressSpace = SourceAddressPolicy(rawValue: 1 << 3)
    /// IPv6 unique-local (and site-local) addresses.
    public static let uniqueLocal = SourceAddressPolicy(rawValue: 1 << 4)
    /// Multicast addresses.
    public static let multicast = SourceAddressPolicy(rawValue: 1 << 5)
    /// The unspecified addresses `0.0.0.0/8` and `::`.
    public static let unspecified = SourceAddressPolicy(rawValue: 1 << 6)
    /// The other special-purpose ranges (see ``AddressClass/reserved``).
    public static let reserved = SourceAddressPolicy(rawValue: 1 << 7)

    /// Whether the server may connect to `address`.
    public func allows(_ address: IPAddress) -> Bool {
        allows(AddressClass(address))
    }

    /// Whether the server may connect to an address of class `addressClass`; public addresses always.
    public func allows(_ addressClass: AddressClass) -> Bool {
        switch addressClass {
        case .public: true
        case .loopback: contains(.loopback)
        case .privateNetwork: contains(.privateNetwork)
        case .linkLocal: contains(.linkLocal)
        case .sharedAddressSpace: contains(.sharedAddressSpace)
        case .uniqueLocal: contains(.uniqueLocal)
        case .multicast: contains(.multicast)
        case .unspecified: contains(.unspecified)
        case .reserved: contains(.reserved)
        }
    }
}
