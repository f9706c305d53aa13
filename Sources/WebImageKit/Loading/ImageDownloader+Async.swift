public import Foundation
public import WebImageCore

extension ImageDownloader {
    /// Downloads the bytes of `url`, sharing the network request with every other caller of the URL.
    /// The checks on status, content type and size apply; nothing is decoded.
    ///
    /// With `validators` (what you stored with your copy: ``DownloadResponse/validators``) the request is
    /// conditional: `If-None-Match` / `If-Modified-Since` are sent, and a 304 returns a value whose
    /// ``DownloadedData/isNotModified`` is true, with no bytes and no error. Callers
    /// sending the same validators share one request; plain callers never join a conditional one.
    ///
    /// Cancelling the calling task removes this caller only and throws ``ImageDownloadError/Code/cancelled``.
    ///
    /// ```swift
    /// let original = try await downloader.data(for: url).data   // to store or forward as it is
    /// ```
    /// - Parameters:
    ///   - url: An `http` or `https` URL.
    ///   - options: Priority and other per-request flags.
    ///   - validators: The validators of a stored copy, for a conditional request.
    ///   - progress: Called as bytes arrive (with the bytes so far for ``DownloadOptions/progressiveLoad``).
    /// - Throws: ``ImageDownloadError``.
    public func data(
        for url: URL,
        options: DownloadOptions = [],
        validators: Validators? = nil,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(ImageDownloadError) -> DownloadedData {
        let subscription = LockedValue<DownloadSubscription?>(nil)
        let result: Result<DownloadedData, ImageDownloadError> = await withTaskCancellationHandler {
            await withHandOff { deliver in
                let caller = DownloadSubscription(url: url, completion: deliver) {
                    deliver(.failure(.cancelled("the task was cancelled")))
                }
                let cancelled = subscription.withLock { stored in
                    stored = caller
                    return Task.isCancelled
                }
                if cancelled {
                    caller.cancel()
                } else {
                    subscribe(url, options: options, validators: validators, progress: progress, token: caller)
                }
            }
        } onCancel: {
            subscription.withLock { $0 }?.cancel()
        }
        return try result.get()
    }

    /// Downloads `url` like ``data(for:options:validators:progress:)`` and decodes it in the decode stage
    /// ``ImageManager`` uses (on WebImageKit's decoding threads, with `coders`;
    /// ``DownloadOptions/scaleDownLargeImages`` applies the 60 MB default budget).
    ///
    /// ```swift
    /// let thumbnail = try await downloader.image(
    ///     for: url, options: [.highPriority],
    ///     decoding: .init(thumbnailPixelSize: PixelSize(width: 128, height: 128))
    /// ).image
    /// ```
    /// - Parameters:
    ///   - url: An `http` or `https` URL.
    ///   - options: Priority and other per-request flags.
    ///   - decoding: How to decode.
    ///   - coders: The coders to decode with (default: every built-in coder).
    ///   - progress: Called as bytes arrive.
    /// - Returns: The decoded image, the bytes and the response.
    /// - Throws: ``ImageDownloadError``; bytes that do not decode fail with ``ImageDownloadError/Code/decodeFailed``.
    public func image(
        for url: URL,
        options: DownloadOptions = [],
        decoding: ImageDecodingOptions = .init(),
        coders: ImageCodersManager = .shared,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(ImageDownloadError) -> DownloadResult {
        let downloaded = try await data(for: url, options: options, progress: progress)
        let decoding = ImageDecodingStage.options(decoding, scalingDown: options.contains(.scaleDownLargeImages))
        return try await ImageDecodingStage(coders: coders).result(of: downloaded, key: nil, options: decoding)
    }

    /// The callback form of ``image(for:options:decoding:coders:progress:)``: queues (or joins) the download
    /// of `url` before returning, and calls `completion` once, unless the returned token is cancelled first.
    ///
    /// - Parameters:
    ///   - url: An `http` or `https` URL; anything else completes with ``ImageDownloadError/Code/invalidURL``.
    ///   - options: Priority and other per-request flags.
    ///   - decoding: How to decode.
    ///   - coders: The coders to decode with (default: every built-in coder).
    ///   - progress: Called as bytes arrive.
    ///   - completion: Called exactly once unless the token is cancelled first, from a background thread.
    /// - Returns: A token whose ``DownloadToken/cancel()`` removes only this caller.
    @discardableResult
    public func download(
        _ url: URL,
        options: DownloadOptions = [],
        decoding: ImageDecodingOptions = .init(),
        coders: ImageCodersManager = .shared,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<DownloadResult, ImageDownloadError>) -> Void
    ) -> DownloadToken {
        let token = DownloadToken(url: url)
        let stage = ImageDecodingStage(coders: coders)
        let decoding = ImageDecodingStage.options(decoding, scalingDown: options.contains(.scaleDownLargeImages))
        let subscription = DownloadSubscription(url: url) { result in
            switch result {
            case .failure(let error):
                WorkerThreads.processing.submit { token.finish { completion(.failure(error)) } }
            case .success(let downloaded):
                guard token.isActive else { return }  // cancelled meanwhile: no decode
                WorkerThreads.processing.submit {
                    let result = Result { () throws(ImageDownloadError) in try stage.resultHere(of: downloaded, key: nil, options: decoding) }
                    token.finish { completion(result) }
                }
            }
        }
        token.attach(subscription)
        subscribe(url, options: options, validators: nil, progress: progress, token: subscription)
        return token
    }
}
