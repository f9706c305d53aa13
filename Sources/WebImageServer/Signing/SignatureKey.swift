/// One imgproxy key/salt pair, decoded from hex (`--key HEX --salt HEX`).
public struct SignatureKey: Sendable, Hashable {
    /// Why a key or salt was refused.
    public struct InvalidHex: Error, Sendable, Hashable, CustomStringConvertible {
        /// Which of the two, and why.
        public var description: String
    }

    /// The HMAC key's bytes.
    let key: [UInt8]
    /// The salt's bytes, prepended to the signed path.
    let salt: [UInt8]

    /// Decodes a hex key and a hex salt (either case); the key must not be empty, the salt may be.
    public init(keyHex: String, saltHex: String) throws(InvalidHex) {
        guard let key = Hex.decode(keyHex) else { throw InvalidHex(description: "the key is not an even number of hex digits") }
        guard !key.isEmpty else { throw InvalidHex(description: "the key is empty") }
        guard let salt = Hex.decode(saltHex) else { throw InvalidHex(description: "the salt is not an even number of hex digits") }
        self.key = key
        self.salt = salt
    }
}
