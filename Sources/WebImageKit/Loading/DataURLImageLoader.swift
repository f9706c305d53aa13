public import Foundation

/// Loads the bytes embedded in `data:` URLs (RFC 2397), base64 or percent-encoded.
public struct DataURLImageLoader: ImageLoading {
    /// The largest decoded payload accepted, in bytes (default 50 MiB).
    public var maximumSize: Int

    /// Creates a loader.
    public init(maximumSize: Int = 50 * 1024 * 1024) {
        self.maximumSize = maximumSize
    }

    /// `data:` URLs.
    public func canLoad(_ url: URL) -> Bool { url.scheme?.lowercased() == "data" }

    /// Returns the payload; a malformed URL fails with ``ImageDownloadError/Code/invalidURL``.
    public func loadData(
        for url: URL,
        options: DownloadOptions,
        validators: Validators?,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData {
        try Task.checkCancellationAsDownloadError()
        let (mediaType, data) = try Self.parse(url.absoluteString, maximumSize: maximumSize)
        guard !data.isEmpty else { throw ImageDownloadError(.emptyBody, "the data URL has no payload") }
        progress?(DownloadProgress(url: url, receivedBytes: data.count, expectedBytes: data.count))
        let response = DownloadResponse(url: url, statusCode: 200, headers: ["content-type": mediaType])
        return DownloadedData(data: data, response: response)
    }

    /// Splits `data:[<media type>][;base64],<payload>` into the media type and the decoded payload.
    static func parse(_ string: String, maximumSize: Int) throws -> (mediaType: String, data: Data) {
        guard string.lowercased().hasPrefix("data:"), let comma = string.firstIndex(of: ",") else {
            throw ImageDownloadError(.invalidURL, "not a data URL")
        }
        let header = string[string.index(string.startIndex, offsetBy: 5)..<comma]
        let payload = string[string.index(after: comma)...]
        var parameters = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let isBase64 = parameters.last?.lowercased() == "base64"
        if isBase64 { parameters.removeLast() }
        let mediaType = parameters.first.map { $0.contains("/") ? $0.lowercased() : "text/plain" } ?? "text/plain"
        // Base64 takes 4 characters per 3 bytes: reject oversized payloads before decoding them.
        guard payload.utf8.count / 4 * 3 <= maximumSize + 3 else {
            throw ImageDownloadError(.tooLarge, "the data URL payload exceeds \(maximumSize) bytes")
        }
        let data: Data?
        if isBase64 {
            let text = String(payload).removingPercentEncoding ?? String(payload)
            data = Data(base64Encoded: text.filter { !$0.isWhitespace }, options: .ignoreUnknownCharacters)
        } else {
            data = Self.percentDecoded(payload.utf8)
        }
        guard let data else { throw ImageDownloadError(.invalidURL, "the data URL payload is malformed") }
        guard data.count <= maximumSize else {
            throw ImageDownloadError(.tooLarge, "the data URL payload exceeds \(maximumSize) bytes")
        }
        return (mediaType, data)
    }

    /// Decodes `%XX` escapes byte by byte (a payload may be binary, so not through `String`); `nil` on a bad escape.
    static func percentDecoded(_ bytes: Substring.UTF8View) -> Data? {
        var output = Data()
        output.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            output.append(high << 4 | low)
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
