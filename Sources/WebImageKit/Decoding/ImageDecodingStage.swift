import Foundation
import WebImageCore

/// The one place WebImageKit turns loaded or stored bytes into an ``Image`` (issue 13): the manager's
/// pipeline (network, `file:`, `data:`, disk hits, images derived from cached originals), the cache's own
/// queries and the downloader's ``ImageDownloader/image(for:options:decoding:coders:progress:)`` all call it.
///
/// It decodes on ``WorkerThreads/processing`` (one thread per core, never Swift's cooperative pool), with
/// the coders it was made with, and gives the image the `@2x`/`@3x` scale of its key unless the options
/// fix one. The scale-down default of ``DownloadOptions/scaleDownLargeImages`` and
/// ``ImageLoadOptions/scaleDownLargeImages`` is filled in by ``options(_:scalingDown:)``, also only here.
struct ImageDecodingStage: Sendable {
    /// The coders every decode of this stage uses.
    let coders: ImageCodersManager

    /// Decodes `data` on the decoding threads.
    /// - Parameter key: the cache key whose `@2x`/`@3x` suffix gives the scale; `nil` keeps the options' scale.
    func decode(_ data: Data, key: String?, options: ImageDecodingOptions) async throws -> Image {
        try await WorkerThreads.processing.run { [self] () throws -> Image in
            try decodeHere(data, key: key, options: options)
        }
    }

    /// Decodes `data` on the calling thread: for work that already runs on the decoding threads, or for a
    /// caller that asked for a synchronous answer and is not on Swift's cooperative pool.
    func decodeHere(_ data: Data, key: String?, options: ImageDecodingOptions) throws -> Image {
        let image = try coders.decode(data, options: options)
        guard options.scale == nil, let key else { return image }
        return image.scaled(forKey: key)
    }

    /// The bytes of a cache hit as the caller sees them, decoded on the calling thread: the image and whether it
    /// goes to the memory cache (only a full decode: a thumbnail or first frame is not the image the key names),
    /// or nil when the bytes do not decode, which makes the hit a miss whose entry the caller removes.
    func decodeHit(_ data: Data, key: String, options: ImageDecodingOptions) -> (image: Image, promotes: Bool)? {
        guard let image = try? decodeHere(data, key: key, options: options) else { return nil }
        return (image, options.decodesFullImage)
    }

    /// Downloaded bytes as a ``DownloadResult``, decoded on the decoding threads; bytes that do not decode are
    /// ``ImageDownloadError/Code/decodeFailed``, naming the coder's error.
    func result(of downloaded: DownloadedData, key: String?, options: ImageDecodingOptions) async throws(ImageDownloadError) -> DownloadResult {
        try await WorkerThreads.processing.run { [self] () throws(ImageDownloadError) -> DownloadResult in
            try resultHere(of: downloaded, key: key, options: options)
        }
    }

    /// ``result(of:key:options:)`` on the calling thread.
    func resultHere(of downloaded: DownloadedData, key: String?, options: ImageDecodingOptions) throws(ImageDownloadError) -> DownloadResult {
        do {
            let image = try decodeHere(downloaded.data, key: key, options: options)
            return DownloadResult(image: image, data: downloaded.data, response: downloaded.response)
        } catch {
            throw ImageDownloadError(.decodeFailed, "the downloaded bytes could not be decoded", underlying: error)
        }
    }

    /// `options` with the seeds' 60 MB scale-down budget filled in when `scalingDown` and none was set.
    static func options(_ options: ImageDecodingOptions, scalingDown: Bool) -> ImageDecodingOptions {
        var options = options
        if scalingDown, options.scaleDownLimitBytes == nil {
            options.scaleDownLimitBytes = ImageDecodingOptions.defaultScaleDownLimitBytes
        }
        return options
    }
}
