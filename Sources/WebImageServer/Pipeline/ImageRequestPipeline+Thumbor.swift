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
            // The geometry keeps them too: the source is shrunk to them once loaded (``ThumborGeometry/normalizedSize(of:)``).
            geometry.maximumSourceWidth = configuration.thumbor.maximumWidth
            geometry.maximumSourceHeight = configuration.thumbor.maximumHeight
            options.thumborGeometry = geometry
        }
        return ParsedImageURL(options: options, sourceURL: mapping.imageURL, maxAge: mapping.maxAge, metadataImageURL: request.meta ? request.requestedImage : nil)
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

    /// `meta/`: the source fetched, decoded and transformed as for the image (its first frame), answered as
    /// thumbor 7.8's JSON engine writes it (``ThumborMetadata``), `imageURL` naming the image; never cached.
    func thumborMetadata(_ job: ImageJob, imageURL: String) async throws(ServerError) -> Response {
        let (transformed, frames) = try await admitted { () throws(ServerError) -> ((size: PixelSize, steps: ThumborSteps), Int) in
            let data = try await loadSource(job)
            let decoded = try await decode(data.data, job)
            return (try await thumborSteps(decoded, job, storedSize: storedSourceSize(data.data, job)), decoded.frames.count)
        }
        let body = ThumborMetadata(url: imageURL, size: transformed.size, steps: transformed.steps, frameCount: frames)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes  // `/`, not `\/`, as Python's json writes it
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        let headers: HTTPFields = [.contentType: "application/json", .cacheControl: "public, max-age=\(job.maxAge ?? configuration.maxAge)"]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The size of the first frame of `image` transformed, and thumbor's steps on the way, on the processing
    /// threads, under the server's result limits (422 over them). Only sizes matter: what keeps the size (blur,
    /// sharpen, the pixel filters but `fill`) is skipped.
    private func thumborSteps(_ image: Image, _ job: ImageJob, storedSize: PixelSize?) async throws(ServerError) -> (size: PixelSize, steps: ThumborSteps) {
        var options = job.options
        options.blur = nil
        options.sharpen = nil
        options.pixelFilters = options.pixelFilters.filter { if case .fill = $0 { true } else { false } }
        var transformer = ProcessingTransformer(
            options: options, maximumPixelCount: configuration.maximumResultPixelCount,
            maximumDimension: configuration.maximumResultDimension.lowered(by: job.options.securityLimits.maximumResultDimension))
        transformer.storedSourceSize = storedSize
        let configured = transformer, pixels = image.pixels, trims = image.frames.count == 1
        do {
            return try await WorkerThreads.processing.run { () throws -> (PixelSize, ThumborSteps) in
                var steps = ThumborSteps()
                let result = try configured.transform(pixels: pixels, flattenOnto: nil, trims: trims, thumborSteps: &steps)
                return (result.size, steps)
            }
        } catch {
            throw ServerError(.unprocessableContent, "the image could not be processed")
        }
    }
}

/// thumbor 7.8's `meta/` answer, as its JSON engine writes it: `source` holds the image part of the URL as
/// requested and the size *after* the transform and the filters (thumbor reads its engine's size when it writes
/// the JSON: a `rotate` or a `fill` shows there);
/// `operations` the crops (`trim`'s, the manual one, the one to the aspect ratio), the resize and the flips;
/// `target` the size of the last crop or resize (the source's when there is none); `focal_points` what the crops
/// centred on. thumbor writes some numbers as floats (`100.0`): the same numbers to a JSON reader.
struct ThumborMetadata: Encodable {
    /// The root object's one key.
    let thumbor: Body

    /// `{"source": …, "operations": […], "target": …, "focal_points": […]}`.
    struct Body: Encodable {
        let source: Source
        let operations: [Operation]
        let target: Size
        let focalPoints: [FocalPoint]

        enum CodingKeys: String, CodingKey {
            case source, operations, target
            case focalPoints = "focal_points"
        }
    }

    /// The image's URL, the size after the operations, the frame count.
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

    /// One operation: `crop` with its edges, `resize` with its size, `flip_horizontally`, `flip_vertically`.
    struct Operation: Encodable {
        let type: String
        var left: Int?
        var top: Int?
        var right: Int?
        var bottom: Int?
        var width: Int?
        var height: Int?
    }

    /// A focal point, as thumbor's `FocalPoint.to_dict()`.
    struct FocalPoint: Encodable {
        let x: Int
        let y: Int
        let z: Double
        let height: Int
        let width: Int
        let origin: String
    }

    /// The answer for the image at `url`, `size` after the transform, with thumbor's `steps`, of `frameCount` frames.
    init(url: String, size: PixelSize, steps: ThumborSteps, frameCount: Int) {
        var target = Size(width: size.width, height: size.height)
        var operations: [Operation] = []
        for operation in steps.operations {
            switch operation {
            case .crop(let rect):
                operations.append(Operation(type: "crop", left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom))
                target = Size(width: rect.right - rect.left, height: rect.bottom - rect.top)
            case .resize(let resized):
                operations.append(Operation(type: "resize", width: resized.width, height: resized.height))
                target = Size(width: resized.width, height: resized.height)
            case .flipHorizontally:
                operations.append(Operation(type: "flip_horizontally"))
            case .flipVertically:
                operations.append(Operation(type: "flip_vertically"))
            }
        }
        let points = steps.focalPoints.map {
            FocalPoint(x: $0.x, y: $0.y, z: $0.weight, height: $0.height, width: $0.width, origin: $0.origin)
        }
        thumbor = Body(
            source: Source(url: url, width: size.width, height: size.height, frameCount: frameCount),
            operations: operations, target: target, focalPoints: points)
    }
}
