/// The checks a source URL passes before the server fetches it: the scheme, the allowlist and, for a literal
/// IP host, the address class.
///
/// Host names are not resolved here: the addresses they resolve to (and those of every redirect) are checked
/// at connect time with the same ``SourceAddressPolicy``.
public struct SourceURLPolicy: Sendable {
    /// The allowed prefixes; empty allows any host (subject to the address classes).
    public var allowedPrefixes: [SourcePrefix]
    /// The address classes allowed besides public addresses.
    public var addressPolicy: SourceAddressPolicy

    /// Creates a policy; by default any public host is allowed and every special address class refused.
    public init(allowedPrefixes: [SourcePrefix] = [], addressPolicy: SourceAddressPolicy = []) {
        self.allowedPrefixes = allowedPrefixes
        self.addressPolicy = addressPolicy
    }

    /// Parses and checks a source URL; throws ``SourceURLError`` saying why it is refused.
    public func check(_ source: String) throws(SourceURLError) -> SourceURL {
        let url = try SourceURL(parsing: source)
        if !allowedPrefixes.isEmpty, !allowedPrefixes.contains(where: { $0.matches(url) }) {
            throw SourceURLError(.notAllowed, "the source is not under an allowed prefix")
        }
        if case .address(let address) = url.host {
            let addressClass = AddressClass(address)
            guard addressPolicy.allows(addressClass) else {
                throw SourceURLError.refused(addressClass)
            }
        }
        return url
    }
}
