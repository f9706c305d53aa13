import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "authorize": the secret, when one is configured (`Authorization: Bearer <secret>`), and the imgproxy
    /// signature, which covers the path after its first segment; 403 when either does not match. (A thumbor
    /// signature is checked in ``parseThumbor(_:)``, where thumbor's grammar finds it.)
    func authorize(_ path: String, authorization: String?) throws(ServerError) {
        if let secret = configuration.secret {
            let expected = Array(("Bearer " + secret).utf8), given = Array((authorization ?? "").utf8)
            let differences = zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) }
            guard expected.count == given.count, differences == 0 else { throw ServerError(.forbidden, "invalid secret") }
        }
        guard configuration.dialect == .imgproxy else { return }
        let (signatureSegment, signedPath) = ImgproxyURLParser.splitSignature(path) ?? ("", "")
        guard signature.isValid(signature: signatureSegment, signedPath: signedPath) else {
            throw ServerError(.forbidden, "invalid signature")
        }
    }

    /// Step "parse": the options in the configured dialect's grammar (400 naming what is wrong; thumbor's signature
    /// is checked here, where its grammar finds it), the source against the policy (400 or 403, before any I/O),
    /// the format `Accept` negotiates when the URL names none, the width and DPR client hints give when on, and
    /// the result key, made once.
    func parse(_ path: String, headers: HTTPFields) throws(ServerError) -> ImageJob {
        switch configuration.dialect {
        case .imgproxy: try checkedJob(parseImgproxy(path, headers: headers), headers: headers)
        case .thumbor: try checkedJob(parseThumbor(path), headers: headers)
        }
    }

    /// An imgproxy URL's options and source.
    private func parseImgproxy(_ path: String, headers: HTTPFields) throws(ServerError) -> ParsedImageURL {
        do {
            let parsed = try parser.parse(path: path, defaults: configuration.usesClientHints ? ClientHints.options(headers) : ProcessingOptions())
            return ParsedImageURL(options: parsed.options, sourceURL: parsed.sourceURL)
        } catch {
            // imgproxy answers an option or preset it does not know with 404, an option (or security option) it does
            // not allow with 403, a bad argument with 400.
            if error.code == .securityOptionsNotAllowed || error.code == .forbiddenOption { throw ServerError(.forbidden, error.message) }
            let unknown = error.code == .unknownOption || error.code == .unknownPreset
            throw ServerError(unknown ? .notFound : .badRequest, error.message)
        }
    }

    /// The job of a parsed URL: its expiry, the source rewritten (replacements, base URL) and checked.
    private func checkedJob(_ parsed: ParsedImageURL, headers: HTTPFields) throws(ServerError) -> ImageJob {
        if let expires = parsed.options.expires, Date().timeIntervalSince1970 > Double(expires) {
            throw ServerError(.notFound, "the URL has expired")
        }
        var sourceURL = configuration.urlReplacements.reduce(parsed.sourceURL) { $1.apply(to: $0) }
        if let base = configuration.baseURL, !sourceURL.hasPrefix(base) { sourceURL = base + sourceURL }
        if sourceURL.hasPrefix("local://") || sourceURL.hasPrefix("s3://") {
            sourceURL = Self.withQuerySeparator(sourceURL, configuration.sourceQuerySeparator)
        }
        if sourceURL.hasPrefix("local://") {
            return try localJob(sourceURL, parsed: parsed, headers: headers)
        }
        if sourceURL.hasPrefix("s3://") {
            return try s3Job(sourceURL, parsed: parsed, headers: headers)
        }
        let checked: SourceURL
        do {
            checked = try sourcePolicy.check(sourceURL)
        } catch {
            switch error.code {
            case .notAllowed, .refusedAddress: throw ServerError(.forbidden, error.message)
            case .unsupportedScheme, .malformed: throw ServerError(.badRequest, error.message)
            }
        }
        guard let source = URL(string: sourceURL) else { throw ServerError(.badRequest, "the source URL is not valid") }
        return job(parsed, source: source, sourcePath: checked.path, headers: headers)
    }

    /// The job of a `local://` source: only with a local root configured, a path that cannot leave it (400), and
    /// under an allowed `local://` prefix when allowed sources are listed (403).
    private func localJob(_ sourceURL: String, parsed: ParsedImageURL, headers: HTTPFields) throws(ServerError) -> ImageJob {
        guard configuration.localFilesystemRoot != nil else { throw ServerError(.badRequest, "local:// sources are not enabled") }
        guard let path = LocalFileSource.relativePath(of: sourceURL), let source = URL(string: sourceURL) else {
            throw ServerError(.badRequest, "the local source path is not valid")
        }
        let prefixes = configuration.allowedLocalPrefixes
        if !configuration.sourcePolicy.allowedPrefixes.isEmpty || !prefixes.isEmpty || !configuration.allowedS3Prefixes.isEmpty {
            guard prefixes.contains(where: { Wildcard.text(path, startsWith: $0) }) else { throw ServerError(.forbidden, "the source is not under an allowed prefix") }
        }
        return job(parsed, source: source, sourcePath: path, headers: headers)
    }

    /// The job of an `s3://bucket/key` source: only with S3 on, a bucket and a key (400), under an allowed `s3://`
    /// prefix when allowed sources are listed (403).
    private func s3Job(_ sourceURL: String, parsed: ParsedImageURL, headers: HTTPFields) throws(ServerError) -> ImageJob {
        guard configuration.usesS3 else { throw ServerError(.badRequest, "s3:// sources are not enabled") }
        guard let object = S3Source.object(of: sourceURL), let source = URL(string: sourceURL) else {
            throw ServerError(.badRequest, "the S3 source is not s3://bucket/key")
        }
        let prefixes = configuration.allowedS3Prefixes
        if !configuration.sourcePolicy.allowedPrefixes.isEmpty || !configuration.allowedLocalPrefixes.isEmpty || !prefixes.isEmpty {
            guard prefixes.contains(where: { Wildcard.text(sourceURL, startsWith: $0) }) else { throw ServerError(.forbidden, "the source is not under an allowed prefix") }
        }
        return job(parsed, source: source, sourcePath: "/" + object.key, headers: headers)
    }

    /// The job for a checked source; a format `Accept` negotiates counts as asked for (the transform then knows
    /// it: extend pads with transparency for WebP and AVIF, white for JPEG).
    private func job(_ parsed: ParsedImageURL, source: URL, sourcePath: String, headers: HTTPFields) -> ImageJob {
        var options = parsed.options
        if let negotiated = negotiation.format(accept: headers[.accept], asked: options.format) {
            options.format = negotiated
        }
        var vary = negotiation.variesByAccept(asked: parsed.options.format) ? ["Accept"] : []
        if configuration.usesClientHints { vary += ClientHints.headerNames }
        var job = ImageJob(options: options, source: source, sourcePath: sourcePath, vary: vary, settings: resultSettings)
        job.maxAge = parsed.maxAge
        job.metadataImageURL = parsed.metadataImageURL
        return job
    }

    /// A `local://` or `s3://` source with its query after `separator` (imgproxy's
    /// `IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`) rather than `?`; with an empty separator, it has no query: a `?` is
    /// part of the path.
    static func withQuerySeparator(_ source: String, _ separator: String) -> String {
        guard separator != "?" else { return source }
        let path = source.split(separator: "?", omittingEmptySubsequences: false).joined(separator: "%3F")
        guard !separator.isEmpty, let range = path.range(of: separator) else { return path }
        return path.replacingCharacters(in: range, with: "?")
    }
}
