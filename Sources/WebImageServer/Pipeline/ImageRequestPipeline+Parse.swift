import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "authorize": the signature covers the path after its first segment (403 when it does not match).
    func authorize(_ path: String) throws(ServerError) {
        let (signatureSegment, signedPath) = ImgproxyURLParser.splitSignature(path) ?? ("", "")
        guard signature.isValid(signature: signatureSegment, signedPath: signedPath) else {
            throw ServerError(.forbidden, "invalid signature")
        }
    }

    /// Step "parse": the options (400 naming what is wrong), the source against the policy (400 or 403, before
    /// any I/O), the format `accept` negotiates when the URL names none, and the result key, made once.
    func parse(_ path: String, accept: String?) throws(ServerError) -> ImageJob {
        let parsed: ImgproxyRequest
        do {
            parsed = try parser.parse(path: path)
        } catch {
            throw ServerError(.badRequest, error.message)
        }
        let checked: SourceURL
        do {
            checked = try sourcePolicy.check(parsed.sourceURL)
        } catch {
            switch error.code {
            case .notAllowed, .refusedAddress: throw ServerError(.forbidden, error.message)
            case .unsupportedScheme, .malformed: throw ServerError(.badRequest, error.message)
            }
        }
        guard let source = URL(string: parsed.sourceURL) else { throw ServerError(.badRequest, "the source URL is not valid") }
        // A negotiated format counts as asked for: the transform then knows it (extend pads with transparency
        // for WebP and AVIF, white for JPEG).
        var options = parsed.options
        if options.format == nil, negotiation.isEnabled {
            options.format = negotiation.format(accept: accept)
        }
        return ImageJob(options: options, source: source, sourcePath: checked.path, variesByAccept: parsed.options.format == nil && negotiation.isEnabled)
    }
}
