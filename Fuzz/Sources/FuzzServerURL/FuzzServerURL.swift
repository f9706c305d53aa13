import Foundation
import WebImageServer

/// The presets every input is parsed with, so that preset expansion is fuzzed too.
let presets = (try? ProcessingPresets(parsing: ["default=q:80", "thumb=rs:fill:200:200/g:sm", "chain=pr:thumb/w:10"])) ?? ProcessingPresets()
let parser = ImgproxyURLParser(presets: presets)
let policy = SourceURLPolicy(allowedPrefixes: [(try? SourcePrefix("https://images.example/photos/")).map { [$0] } ?? []].flatMap { $0 })
let verifier = URLSignatureVerifier(keys: [(try? SignatureKey(keyHex: "6b6579", saltHex: "73616c74")).map { [$0] } ?? []].flatMap { $0 })

/// Fuzzes what a hostile client controls in `webimage serve`: the request path (the imgproxy URL parser,
/// presets, base64 and percent-decoding), the signature check, the source URL parser and allowlist, and the
/// IP address parser.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerURL(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    if let (signature, signedPath) = ImgproxyURLParser.splitSignature(text) {
        _ = verifier.isValid(signature: signature, signedPath: signedPath)
    }
    if let request = try? parser.parse(path: text) {
        _ = try? policy.check(request.sourceURL)
        _ = request.options.width
    }
    _ = try? SourceURL(parsing: text)
    if let address = IPAddress(text) {
        _ = AddressClass(address)
    }
    _ = try? ProcessingPresets(parsing: [text])
    return 0
}
