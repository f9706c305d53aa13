import AsyncHTTPClient
import Crypto
public import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
public import WebImageKit

/// An image the settings name (the watermark, the fallback image), loaded and decoded once when the settings
/// are read, never per request: from base64 text (`IMGPROXY_*_DATA`), a file (`IMGPROXY_*_PATH`) or a URL
/// fetched at start (`IMGPROXY_*_URL`). An image that cannot be loaded is a setting error, so the server does
/// not start.
///
/// Only the first frame is kept, turned upright; the bytes are bounded by ``maximumBytes`` and the pixels by
/// ``maximumPixelCount`` before anything is decoded.
public struct ConfiguredImage: Sendable {
    /// The decoded image: one frame, upright.
    public let image: Image
    /// A digest of the encoded bytes, so that results made with another image have other keys.
    let fingerprint: String

    /// The most bytes a configured image may have: 50 MB.
    public static let maximumBytes = 50_000_000
    /// The most pixels a configured image may have: 50 megapixels.
    public static let maximumPixelCount = 50_000_000

    /// Decodes `data`; throws when it is too large or not an image the server decodes.
    public init(data: Data) throws(ConfiguredImageError) {
        guard data.count <= Self.maximumBytes else { throw ConfiguredImageError("has more than \(Self.maximumBytes) bytes") }
        let options = ImageDecodingOptions(
            firstFrameOnly: true, applyOrientation: true, maximumPixelCount: Self.maximumPixelCount,
            maximumSourcePixelCount: Self.maximumPixelCount)
        fingerprint = Hex.encode(SHA256.hash(data: data).prefix(12))
        do {
            image = try ImageCodersManager.shared.decode(data, options: options)
        } catch {
            throw ConfiguredImageError("is not an image the server can decode (or has more than \(Self.maximumPixelCount) pixels)")
        }
    }

    /// The image whose bytes `text` holds as base64 (standard or URL-safe, padded or not, whitespace ignored).
    static func base64(_ text: String) throws(ConfiguredImageError) -> ConfiguredImage {
        let compact = text.filter { !$0.isWhitespace }
        guard let data = Base64URL.decode(compact.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")) else {
            throw ConfiguredImageError("is not base64")
        }
        return try ConfiguredImage(data: Data(data))
    }

    /// The image in the file at `path`.
    static func file(_ path: String) throws(ConfiguredImageError) -> ConfiguredImage {
        let url = URL(fileURLWithPath: path)
        let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? nil
        guard let size else { throw ConfiguredImageError("cannot be read") }
        guard size <= Self.maximumBytes else { throw ConfiguredImageError("has more than \(Self.maximumBytes) bytes") }
        guard let data = try? Data(contentsOf: url) else { throw ConfiguredImageError("cannot be read") }
        return try ConfiguredImage(data: data)
    }

    /// The image at the http or https `address`, fetched now (the settings are read once, at start), within
    /// `timeout` and ``maximumBytes``; any status but 200 is an error. The address is the operator's, so it is not
    /// checked against the source policy.
    static func fetched(_ address: String, timeout: Duration = .seconds(10)) throws(ConfiguredImageError) -> ConfiguredImage {
        guard let url = URL(string: address), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ConfiguredImageError("is not an http or https URL")
        }
        let response: HTTPClient.Response
        do {
            let request = try HTTPClient.Request(url: url)
            let accumulator = ResponseAccumulator(request: request, maxBodySize: Self.maximumBytes)
            let deadline = NIODeadline.now() + .milliseconds(Int64(timeout.components.seconds * 1000))
            // Settings are read synchronously at start; the client's own threads do the work meanwhile (NIO stops
            // the process when this waits on an event loop; `webimage serve` resolves its settings on its own threads).
            response = try HTTPClient.shared.execute(request: request, delegate: accumulator, deadline: deadline).wait()
        } catch {
            throw ConfiguredImageError("could not be fetched (\(error))")
        }
        guard response.status.code == 200 else { throw ConfiguredImageError("answered \(response.status.code)") }
        return try ConfiguredImage(data: Data(buffer: response.body ?? ByteBuffer()))
    }
}

/// Why a configured image cannot be used; the setting's name is added by the setting that reads it.
public struct ConfiguredImageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, after the setting's name and value (`is not base64`).
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
