import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import WebImageKit

/// imgproxy's `s3://bucket/key` sources (`IMGPROXY_USE_S3`): a `GET` of the object signed with AWS Signature
/// Version 4, through AsyncHTTPClient, as a loader, so that the manager caches and revalidates objects as it does
/// downloads. `?versionId=` selects a version.
///
/// With a custom endpoint (`IMGPROXY_S3_ENDPOINT`, such as MinIO or moto) requests are path-style
/// (`endpoint/bucket/key`), or virtual-hosted (`bucket.endpoint/key`) when `IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE` is
/// false; without one, virtual-hosted on AWS (`https://bucket.s3.region.amazonaws.com/key`). The
/// endpoint is the operator's, so it is not subject to the source address policy. A missing object is a 404; a
/// refused request (bad signature, no permission) a 403 naming S3's error code.
struct S3Source: ImageLoading {
    let endpoint: URL?
    /// Whether a custom endpoint is addressed path-style (imgproxy's default) rather than virtual-hosted.
    var endpointUsesPathStyle = true
    let region: String
    /// Nil: requests are sent unsigned (public buckets).
    let credentials: AWSCredentials?
    let maximumBytes: Int
    let timeout: Duration

    func canLoad(_ url: URL) -> Bool { url.scheme == "s3" }

    /// The bucket and key of an `s3://` source, or nil when it has no bucket, no key, or a `.`/`..` segment.
    static func object(of source: String) -> (bucket: String, key: String, versionID: String?)? {
        guard let components = URLComponents(string: source), components.scheme == "s3",
              let bucket = components.host, !bucket.isEmpty
        else { return nil }
        let key = String(components.percentEncodedPath.dropFirst())
        let segments = key.split(separator: "/", omittingEmptySubsequences: false)
        guard !key.isEmpty, !segments.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        let version = components.queryItems?.first { $0.name == "versionId" }?.value
        return (bucket, key, version)
    }

    /// The HTTPS (or the endpoint's) URL of the object.
    func objectURL(bucket: String, key: String, versionID: String?) -> URL? {
        var text: String
        if let endpoint, endpointUsesPathStyle {
            text = endpoint.absoluteString.trimmingSuffix("/") + "/" + bucket + "/" + key
        } else if let endpoint, var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false), let host = components.host {
            components.host = bucket + "." + host
            text = (components.string ?? "").trimmingSuffix("/") + "/" + key
        } else {
            text = "https://\(bucket).s3.\(region).amazonaws.com/\(key)"
        }
        if let versionID { text += "?versionId=" + AWSSignatureV4.uriEncode(versionID) }
        return URL(string: text)
    }

    func loadData(
        for url: URL, options: DownloadOptions, validators: Validators?, progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData {
        guard let object = Self.object(of: url.absoluteString),
              let target = objectURL(bucket: object.bucket, key: object.key, versionID: object.versionID)
        else { throw ImageDownloadError(.invalidURL, "not an S3 object URL") }
        var request = HTTPClientRequest(url: target.absoluteString)
        var headers: [String: String] = [:]
        if let etag = validators?.etag { headers["If-None-Match"] = etag }
        if let lastModified = validators?.lastModified { headers["If-Modified-Since"] = lastModified }
        if let credentials {
            headers = AWSSignatureV4(credentials: credentials, region: region).signedHeaders(method: "GET", url: target, headers: headers, date: Date())
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
        } catch {
            throw ImageDownloadError(.network, "the S3 endpoint could not be reached", underlying: error)
        }
        let status = Int(response.status.code)
        var responseHeaders: [String: String] = [:]
        for name in ["etag", "last-modified", "content-type"] {
            if let value = response.headers.first(name: name) { responseHeaders[name] = value }
        }
        switch status {
        case 200:
            do {
                let body = try await response.body.collect(upTo: maximumBytes)
                return DownloadedData(data: Data(buffer: body), response: DownloadResponse(url: url, statusCode: 200, headers: responseHeaders))
            } catch {
                throw ImageDownloadError(.tooLarge, "the S3 object is larger than the server accepts")
            }
        case 304:
            return DownloadedData(data: Data(), response: DownloadResponse(url: url, statusCode: 304, headers: responseHeaders))
        case 403:
            let code = Self.errorCode(try? await response.body.collect(upTo: 64 * 1024)) ?? "AccessDenied"
            throw ImageDownloadError(.rejected, "S3 refused the request", underlying: SourceURLError(.notAllowed, "S3 refused the request (\(code))"))
        case 404:
            throw ImageDownloadError(.badStatus(404), "no such S3 object")
        default:
            throw ImageDownloadError(.badStatus(status), "S3 answered \(status)")
        }
    }

    /// S3's `<Code>…</Code>` in an error body: letters only, at most 64.
    static func errorCode(_ body: ByteBuffer?) -> String? {
        guard let body, let text = body.getString(at: body.readerIndex, length: body.readableBytes),
              let start = text.range(of: "<Code>"), let end = text.range(of: "</Code>", range: start.upperBound..<text.endIndex)
        else { return nil }
        let code = text[start.upperBound..<end.lowerBound]
        guard !code.isEmpty, code.count <= 64, code.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        return String(code)
    }
}

extension String {
    /// Without `suffix` at the end, once.
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
