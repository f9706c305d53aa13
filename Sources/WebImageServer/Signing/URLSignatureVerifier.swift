import Crypto

/// Checks imgproxy signatures: URL-safe base64 (no padding) of HMAC-SHA256, keyed with the hex-decoded key,
/// over the hex-decoded salt followed by the path after the signature (starting with `/`).
///
/// Any of several key/salt pairs may match, so keys can be rotated. With no pair configured, signatures are
/// off and every signature segment is accepted (imgproxy's behaviour); the server logs a warning at start.
public struct URLSignatureVerifier: Sendable {
    /// The key/salt pairs, any of which may sign a URL.
    public var keys: [SignatureKey]

    /// Creates a verifier; an empty list turns signature checking off.
    public init(keys: [SignatureKey] = []) {
        self.keys = keys
    }

    /// Whether signatures are checked (at least one key/salt pair).
    public var isEnabled: Bool { !keys.isEmpty }

    /// The signature of `signedPath` with `key`, as imgproxy computes it.
    public static func signature(for signedPath: some StringProtocol, key: SignatureKey) -> String {
        Base64URL.encode(mac(for: signedPath, key: key))
    }

    /// Whether `signature` signs `signedPath` with one of the keys (always true when checking is off).
    ///
    /// The comparison of authentication codes takes the same time wherever they differ (swift-crypto's
    /// `isValidAuthenticationCode`); every key is tried, so the time does not say which key matched.
    public func isValid(signature: some StringProtocol, signedPath: some StringProtocol) -> Bool {
        guard isEnabled else { return true }
        // The canonical form only: 43 URL-safe base64 characters that decode to 32 bytes and encode back the same.
        guard signature.utf8.count == 43, let provided = Base64URL.decode(signature), provided.count == 32,
            Base64URL.encode(provided) == String(signature)
        else { return false }
        var matched = false
        for key in keys {
            var message = key.salt
            message.append(contentsOf: signedPath.utf8)
            let valid = HMAC<SHA256>.isValidAuthenticationCode(provided, authenticating: message, using: SymmetricKey(data: key.key))
            matched = matched || valid
        }
        return matched
    }

    private static func mac(for signedPath: some StringProtocol, key: SignatureKey) -> [UInt8] {
        var message = key.salt
        message.append(contentsOf: signedPath.utf8)
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key.key)))
    }
}
