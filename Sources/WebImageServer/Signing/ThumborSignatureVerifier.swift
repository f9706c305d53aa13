import Crypto

/// Checks thumbor signatures as libthumbor makes them: URL-safe base64, with its `=` padding, of HMAC-SHA1 keyed
/// with the security key (its UTF-8 bytes) over the path after the signature segment and its `/`.
///
/// thumbor compares the whole text, so a signature without its padding, or cut short, is refused too.
struct ThumborSignatureVerifier: Sendable {
    /// thumbor's `SECURITY_KEY`; nil when none is configured (then only `unsafe` URLs can be answered).
    var key: String?

    /// The signature libthumbor writes for `signedPath` with `key`.
    static func signature(for signedPath: some StringProtocol, key: String) -> String {
        let code = HMAC<Insecure.SHA1>.authenticationCode(for: Array(signedPath.utf8), using: SymmetricKey(data: Array(key.utf8)))
        let text = Base64URL.encode(Array(code))
        return text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
    }

    /// Whether `signature` (percent-decoded) signs `signedPath`; false without a key. The texts are compared in
    /// time that does not depend on where they differ.
    func isValid(signature: String, signedPath: some StringProtocol) -> Bool {
        guard let key else { return false }
        let expected = Array(Self.signature(for: signedPath, key: key).utf8), given = Array(signature.utf8)
        let differences = zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) }
        return expected.count == given.count && differences == 0
    }
}
