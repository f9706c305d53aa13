/// Why a source URL was refused before any connection; the message never repeats the URL.
public struct SourceURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of refusal.
    public enum Code: Sendable, Hashable {
        /// Not `http` or `https`.
        case unsupportedScheme
        /// Not a URL this server accepts (user information, an ambiguous host, dot segments, …).
        case malformed
        /// Not under any `--allow-source` prefix.
        case notAllowed
        /// A literal IP address of a class the policy refuses.
        case refusedAddress(AddressClass)
    }

    /// The kind of refusal.
    public var code: Code
    /// One line that says why, safe to send to the client.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The refusal of an address of class `addressClass`, before connecting or at connect time.
    static func refused(_ addressClass: AddressClass) -> SourceURLError {
        SourceURLError(.refusedAddress(addressClass), "sources at \(addressClass.name) addresses are not allowed")
    }
}
