import Testing
@testable import WebImageServer

/// Signature vectors computed outside Swift, with Python's `hmac`, by `scripts/imgproxy-signature-vectors.py`
/// (run it and paste its output to add vectors). The first two are also imgproxy's own documented examples:
/// docs.imgproxy.net "Signing a URL" (key `secret`, salt `hello`, the `rs:fill:300:400:0/g:sm` path) and the
/// older docs/signing_the_url.md in imgproxy's repository (the basic `/fill/300/400/sm/0/` path).
struct SignatureVector: Sendable, CustomTestStringConvertible {
    let key: String
    let salt: String
    let path: String
    let signature: String
    var testDescription: String { path }
}

private let vectors: [SignatureVector] = [
    SignatureVector(key: "736563726574", salt: "68656C6C6F",
           path: "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png",
           signature: "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8"),
    SignatureVector(key: "736563726574", salt: "68656C6C6F",
           path: "/fill/300/400/sm/0/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png",
           signature: "AfrOrF3gWeDA6VOlDG4TzxMv39O7MXnF4CXpKUwGqRM"),
    SignatureVector(key: "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881", salt: "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5",
           path: "/rs:fit:640:0/q:80/plain/https://images.example.com/photos/cat%20in%20hat.jpg@webp",
           signature: "bketJ1tbnCXxrX1SHMqtLoZUOAobh_hBAosNKCcUHpI"),
    SignatureVector(key: "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881", salt: "",
           path: "/w:100/plain/http://example.com/a.png",
           signature: "LtXVTazZ9zEYpKZ9JUGpwLGM0cANqbjXAKvAhxs6Vzg"),
    SignatureVector(key: "00ff", salt: "ff00",
           path: "/pr:thumb/aHR0cHM6Ly9leGFtcGxlLmNvbS_DqXTDqS5qcGc.avif",
           signature: "hB1UMfP-UvzPVxsVH8NwFl2zO81tfIGcvBHxUh2-qjQ"),
]

@Suite struct URLSignatureVerifierTests {
    @Test(arguments: vectors)
    func signatureIsURLSafeBase64OfHMACOverSaltAndPath(_ vector: SignatureVector) throws {
        let key = try SignatureKey(keyHex: vector.key, saltHex: vector.salt)
        #expect(URLSignatureVerifier.signature(for: vector.path, key: key) == vector.signature)
        #expect(URLSignatureVerifier(keys: [key]).isValid(signature: vector.signature, signedPath: vector.path))
    }

    @Test func anyOfSeveralKeySaltPairsMayMatch() throws {
        let old = try SignatureKey(keyHex: "736563726574", saltHex: "68656C6C6F")
        let new = try SignatureKey(keyHex: "00ff", saltHex: "ff00")
        let verifier = URLSignatureVerifier(keys: [new, old])
        for vector in vectors where vector.key == "736563726574" || vector.key == "00ff" {
            #expect(verifier.isValid(signature: vector.signature, signedPath: vector.path))
        }
    }

    @Test func changedPathOrSignatureIsRefused() throws {
        let vector = vectors[0]
        let verifier = URLSignatureVerifier(keys: [try SignatureKey(keyHex: vector.key, saltHex: vector.salt)])
        #expect(!verifier.isValid(signature: vector.signature, signedPath: vector.path.replacingFirst("300", with: "301")))
        var flipped = Array(vector.signature)
        flipped[5] = flipped[5] == "A" ? "B" : "A"
        #expect(!verifier.isValid(signature: String(flipped), signedPath: vector.path))
        #expect(!verifier.isValid(signature: "", signedPath: vector.path))
        #expect(!verifier.isValid(signature: "insecure", signedPath: vector.path))
        #expect(!verifier.isValid(signature: vector.signature + "=", signedPath: vector.path), "only the canonical unpadded form")
        #expect(!verifier.isValid(signature: String(vector.signature.dropLast()), signedPath: vector.path))
    }

    @Test func wrongSaltIsRefused() throws {
        let vector = vectors[0]
        let verifier = URLSignatureVerifier(keys: [try SignatureKey(keyHex: vector.key, saltHex: "68656C6C6F00")])
        #expect(!verifier.isValid(signature: vector.signature, signedPath: vector.path))
    }

    @Test func withoutKeysAnySignatureSegmentIsAccepted() {
        let verifier = URLSignatureVerifier()
        #expect(!verifier.isEnabled)
        #expect(verifier.isValid(signature: "insecure", signedPath: "/w:100/plain/http://example.com/a.png"))
        #expect(verifier.isValid(signature: "_", signedPath: "/anything"))
    }

    @Test(arguments: [("", "00"), ("abc", "00"), ("zz", "00"), ("00", "0"), ("00", "xy")])
    func malformedHexKeysAndSaltsAreRefused(key: String, salt: String) {
        #expect(throws: SignatureKey.InvalidHex.self) { try SignatureKey(keyHex: key, saltHex: salt) }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}
