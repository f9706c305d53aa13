import Crypto

/// Checks imgproxy signatures: URL-safe base64 (no padding) of HMAC-SHA256, keyed with the hex-decoded key,
/// over the hex-decoded salt followed by the path after the signature (starting with `/`).
///
/// Any of several key/salt pairs may match, so keys can be rotated. With no pair configured, signatures are
/// off and every signature segment is accepted (imgproxy's behaviour); the server logs a warning at start.
public struct URLSignatureVerifier: Sendable {
    /// The key/salt pairs, any of which may sign a URL.
    public var keys: [SignatureKey]
    /// How many bytes of the HMAC a signature carries (imgproxy's `IMGPROXY_SIGNATURE_SIZE`), 1 to 32; default 32.
    public var signatureSize: Int
    /// Signatures accepted without checking (imgproxy's `IMGPROXY_TRUSTED_SIGNATURES`).
    public var trustedSignatures: Set<String>

    /// Creates a verifier; an empty list turns signature checking off.
    public init(keys: [SignatureKey] = [], signatureSize: Int = 32, trustedSignatures: Set<String> = []) {
        self.keys = keys
        self.signatureSize = min(max(signatureSize, 1), 32)
        self.trustedSignatures = trustedSignatures
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
        guard isEnabled, !trustedSignatures.contains(String(signature)) else { return true }
        // The canonical form only: URL-safe base64 that decodes to `signatureSize` bytes and encodes back the same.
        guard let provided = Base64URL.decode(signature), provided.count == signatureSize,
            Base64URL.encode(provided) == String(signature)
        else { return false }
        var matched = false
        for key in keys {
            // Every byte of the truncated code is compared, in time that does not depend on where they differ.
            let expected = Self.mac(for: signedPath, key: key).prefix(signatureSize)
            let differences = zip(expected, provided).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) }
            matched = matched || differences == 0
        }
        return matched
    }

    private static func mac(for signedPath: some StringProtocol, key: SignatureKey) -> [UInt8] {
        var message = key.salt
        message.append(contentsOf: signedPath.utf8)
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key.key)))
    }
}
