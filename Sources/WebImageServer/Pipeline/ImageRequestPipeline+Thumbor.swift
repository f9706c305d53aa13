import Foundation
import HTTPTypes
import Hummingbird
import WebImageKit

extension ImageRequestPipeline {
    /// Step "parse" in thumbor's grammar, its "authorize" included: `unsafe/` only when the server allows unsafe
    /// URLs, else the signature libthumbor makes with the security key; either refused is 400, as thumbor answers.
    /// The filters are mapped onto the options (``ThumborMapping``), a watermark's URL checked against the source
    /// policy; `MAX_WIDTH` and `MAX_HEIGHT` lower the requested size.
    func parseThumbor(_ path: String) throws(ServerError) -> ParsedImageURL {
        let request: ThumborRequest
        do {
            request = try ThumborURLParser().parse(path: path)
        } catch {
            throw ServerError(.badRequest, error.message)
        }
        switch request.authority {
        case .unsafe:
            guard configuration.thumbor.allowsUnsafeURLs else { throw ServerError(.badRequest, "unsafe URLs are not allowed") }
        case .signature(let signature):
            let verifier = ThumborSignatureVerifier(key: configuration.thumbor.securityKey)
            guard verifier.isValid(signature: signature, signedPath: request.signedPath) else { throw ServerError(.badRequest, "invalid signature") }
        }
        let mapping = ThumborMapping(request)
        for url in Self.watermarkURLs(mapping.options) { _ = try checkedWatermarkURL(url) }
        var options = mapping.options
        if var geometry = options.thumborGeometry {
            geometry.width = Self.limited(geometry.width, to: configuration.thumbor.maximumWidth)
            geometry.height = Self.limited(geometry.height, to: configuration.thumbor.maximumHeight)
            options.width = geometry.width.pixelsOrZero
            options.height = geometry.height.pixelsOrZero
            options.thumborGeometry = geometry
        }
        return ParsedImageURL(options: options, sourceURL: mapping.imageURL, maxAge: mapping.maxAge, answersWithMetadata: mapping.meta)
    }

    /// A requested side lowered to `maximum` (thumbor's `MAX_WIDTH`/`MAX_HEIGHT`; 0: no limit).
    static func limited(_ side: ThumborRequest.Side, to maximum: Int) -> ThumborRequest.Side {
        guard maximum > 0, case .pixels(let pixels) = side, pixels > maximum else { return side }
        return .pixels(maximum)
    }

    /// An error as thumbor answers it: a refused source (403 here) and a source that is not an image it decodes
    /// (422 here) are 400 in thumbor; the rest keep their status (404 for a missing source, 502, 504).
    static func thumborError(_ error: ServerError) -> ServerError {
        guard error.status == .forbidden || error.status == .unprocessableContent else { return error }
        return ServerError(.badRequest, error.message, headers: error.headers)
    }

    /// `meta/`: the source fetched, decoded and transformed as for the image, answered as thumbor's JSON
    /// (`{"thumbor": {"source": …, "operations": […], "target": …}}`), never cached.
    func thumborMetadata(_ job: ImageJob) async throws(ServerError) -> Response {
        let (source, target, frames) = try await admitted { () throws(ServerError) -> (PixelSize, PixelSize, Int) in
            let data = try await loadSource(job)
            let decoded = try await decode(data.data, job)
            let stored = storedSourceSize(data.data, job)
            let transformed = try await transform(decoded, job, format: outputFormat(for: decoded, job), storedSize: stored)
            return (stored ?? decoded.pixelSize, transformed.pixelSize, decoded.frames.count)
        }
        let body = ThumborMetadata(url: job.source.absoluteString, source: source, target: target, frameCount: frames, options: job.options)
        let data = (try? JSONEncoder().encode(body)) ?? Data("{}".utf8)
        let headers: HTTPFields = [.contentType: "application/json", .cacheControl: "public, max-age=\(job.maxAge ?? configuration.maxAge)"]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// thumbor's `meta/` answer: the source's URL, size and frame count, the operations, the target size.
struct ThumborMetadata: Encodable {
    /// The root object's one key.
    let thumbor: Body

    /// `{"source": …, "operations": […], "target": …}`.
    struct Body: Encodable {
        let source: Source
        let operations: [Operation]
        let target: Size
    }

    /// The source's URL, size and frame count.
    struct Source: Encodable {
        let url: String
        let width: Int
        let height: Int
        let frameCount: Int
    }

    /// A width and a height.
    struct Size: Encodable {
        let width: Int
        let height: Int
    }

    /// One operation as thumbor lists it: `resize` with a size, `flip_horizontally`, `flip_vertically`.
    struct Operation: Encodable {
        let type: String
        let width: Int?
        let height: Int?
    }

    /// The answer for a source of `source` pixels transformed to `target` under `options`.
    init(url: String, source: PixelSize, target: PixelSize, frameCount: Int, options: ProcessingOptions) {
        var operations: [Operation] = []
        if source != target { operations.append(Operation(type: "resize", width: target.width, height: target.height)) }
        if options.flipHorizontal { operations.append(Operation(type: "flip_horizontally", width: nil, height: nil)) }
        if options.flipVertical { operations.append(Operation(type: "flip_vertically", width: nil, height: nil)) }
        thumbor = Body(
            source: Source(url: url, width: source.width, height: source.height, frameCount: frameCount),
            operations: operations, target: Size(width: target.width, height: target.height))
    }
}
