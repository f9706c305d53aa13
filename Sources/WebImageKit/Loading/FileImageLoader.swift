public import Foundation
public import WebImageCore

/// Loads images from `file:` URLs, reading at most ``maximumFileSize`` bytes.
public struct FileImageLoader: ImageLoading {
    /// The largest file read, in bytes (default 50 MiB, as the downloader's response limit).
    public var maximumFileSize: Int
    /// The coders that decode the bytes.
    public var coders: ImageCodersManager

    /// Creates a loader.
    public init(maximumFileSize: Int = 50 * 1024 * 1024, coders: ImageCodersManager = .shared) {
        self.maximumFileSize = maximumFileSize
        self.coders = coders
    }

    /// `file:` URLs.
    public func canLoad(_ url: URL) -> Bool { url.isFileURL }

    /// Reads and decodes the file; a missing or unreadable file fails with ``ImageDownloadError/Code/notFound``.
    public func load(
        _ url: URL,
        options: DownloadOptions,
        decoding: ImageDecodingOptions,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadResult {
        guard url.isFileURL else { throw ImageDownloadError(.invalidURL, "\(url.absoluteString) is not a file URL") }
        try Task.checkCancellationAsDownloadError()
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attributes, (attributes[.type] as? FileAttributeType) != .typeDirectory else {
            throw ImageDownloadError(.notFound, "no file at \(url.path)")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumFileSize else {
            throw ImageDownloadError(.tooLarge, "\(url.path) has \(size) bytes, over the limit of \(maximumFileSize)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImageDownloadError(.notFound, "\(url.path) could not be read", underlying: error)
        }
        guard !data.isEmpty else { throw ImageDownloadError(.emptyBody, "\(url.path) is empty") }
        progress?(DownloadProgress(url: url, receivedBytes: data.count, expectedBytes: data.count))
        try Task.checkCancellationAsDownloadError()
        let response = DownloadResponse(url: url, statusCode: 200)
        return try await decodeDownloaded(data, response: response, coders: coders, options: options, decoding: decoding)
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws ``ImageDownloadError/Code/cancelled`` when the current task is cancelled.
    static func checkCancellationAsDownloadError() throws {
        if Task.isCancelled { throw ImageDownloadError.cancelled("the task was cancelled") }
    }
}

/// Decodes loaded bytes into a ``DownloadResult`` on the decoding threads, applying ``DownloadOptions/scaleDownLargeImages``.
func decodeDownloaded(
    _ data: Data, response: DownloadResponse, coders: ImageCodersManager,
    options: DownloadOptions, decoding: ImageDecodingOptions
) async throws(ImageDownloadError) -> DownloadResult {
    var decoding = decoding
    if options.contains(.scaleDownLargeImages), decoding.scaleDownLimitBytes == nil {
        decoding.scaleDownLimitBytes = ImageDecodingOptions.defaultScaleDownLimitBytes
    }
    let coders = decoding.coders ?? coders
    let options = decoding
    return try await WorkerThreads.processing.run { () throws(ImageDownloadError) -> DownloadResult in
        do {
            return DownloadResult(image: try coders.decode(data, options: options), data: data, response: response)
        } catch {
            throw ImageDownloadError(.decodeFailed, "the bytes could not be decoded", underlying: error)
        }
    }
}
