public import Foundation
public import WebImageCore

/// A decoded download (``ImageDownloader/image(for:options:decoding:coders:progress:)``): the image, its bytes and the response.
public struct DownloadResult: Sendable {
    /// The image, decoded with the caller's `ImageDecodingOptions`.
    public var image: Image
    /// The downloaded bytes, exactly as received (shared by every subscriber of the download).
    public var data: Data
    /// The HTTP response (or a synthesised one for `file:` and `data:` URLs).
    public var response: DownloadResponse

    /// Creates a result.
    init(image: Image, data: Data, response: DownloadResponse) {
        self.image = image
        self.data = data
        self.response = response
    }
}

/// What a loader returns: the bytes and the response they came with (``ImageLoading``).
public struct DownloadedData: Sendable {
    /// The body; empty when ``isNotModified``.
    public var data: Data
    /// The response it came with (a synthesised one for `file:` and `data:` URLs).
    public var response: DownloadResponse

    /// Creates a value.
    public init(data: Data, response: DownloadResponse) {
        self.data = data
        self.response = response
    }

    /// Whether a conditional load found the caller's copy current (HTTP 304): no bytes, no error.
    public var isNotModified: Bool { response.statusCode == 304 }
}

/// The parts of a response a caller may need after a download: status, final URL and headers.
public struct DownloadResponse: Sendable, Hashable {
    /// The URL the bytes came from, after redirects.
    public var url: URL
    /// The HTTP status code (200 for non-HTTP loaders).
    public var statusCode: Int
    /// The response headers with lower-cased names; repeated headers are joined with ", ".
    public var headers: [String: String]

    /// Creates a response.
    public init(url: URL, statusCode: Int, headers: [String: String] = [:]) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers.reduce(into: [:]) { $0[$1.key.lowercased()] = $1.value }
    }

    /// A response of HTTP/1.1 header fields: names lower-cased, repeated ones joined with ", ", in one pass.
    init(url: URL, statusCode: Int, fields: some Sequence<(name: String, value: String)>) {
        self.url = url
        self.statusCode = statusCode
        self.headers = Dictionary(fields.lazy.map { ($0.name.lowercased(), $0.value) }) { "\($0), \($1)" }
    }

    /// The value of the header `name` (case-insensitive), if present.
    public func value(forHeader name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The `Content-Type` without parameters, lower-cased (`"image/png"`), if present and not blank.
    public var mimeType: String? {
        // On the UTF-8 bytes: Foundation's trimming and Character-wise slicing cost microseconds per call.
        guard let value = headers["content-type"] else { return nil }
        let bytes = value.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes[..<end].firstIndex(where: { !isBlank($0) }),
              let last = bytes[first..<end].lastIndex(where: { !isBlank($0) }) else { return nil }
        let type = Substring(value.utf8[first...last])
        return type.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) ? type.lowercased() : String(type)
    }
}

/// How far a download has got: bytes received so far and the bytes expected, if known.
public struct DownloadProgress: Sendable, Hashable {
    /// The URL being downloaded.
    public var url: URL
    /// Bytes of the body received so far.
    public var receivedBytes: Int
    /// The body size from `Content-Length`, or `nil` when the server did not say (the seeds' -1).
    public var expectedBytes: Int?
    /// The bytes received so far, for a caller that asked for ``DownloadOptions/progressiveLoad`` (to decode
    /// partial images); `nil` otherwise.
    public var data: Data?

    /// Creates a progress value.
    public init(url: URL, receivedBytes: Int, expectedBytes: Int?, data: Data? = nil) {
        self.url = url
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
        self.data = data
    }

    /// The fraction received, from 0 to 1, or `nil` when the size is unknown.
    package var fractionCompleted: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expectedBytes))
    }
}
