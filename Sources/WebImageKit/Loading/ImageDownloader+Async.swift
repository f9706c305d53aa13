public import Foundation
public import WebImageCore

extension ImageDownloader {
    /// Downloads and decodes the image at `url`, sharing the network request with every other caller
    /// of the same URL (SPEC DL-39, DL-48).
    ///
    /// Cancelling the calling task cancels this caller only (as ``DownloadToken/cancel()`` does) and
    /// throws ``ImageDownloadError/Code/cancelled``.
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
    ///   - decoding: How to decode for this caller.
    ///   - progress: Called as bytes arrive.
    ///   - partial: With ``DownloadOptions/progressiveLoad``, called with partial images while bytes
    ///     arrive (see ``download(_:options:decoding:progress:partial:completion:)``).
    /// - Returns: The decoded image, the bytes and the response.
    /// - Throws: ``ImageDownloadError``.
    public func image(
        for url: URL,
        options: DownloadOptions = [],
        decoding: ImageDecodingOptions = .init(),
        progress: (@Sendable (DownloadProgress) -> Void)? = nil,
        partial: (@Sendable (Image) -> Void)? = nil
    ) async throws -> DownloadResult {
        let waiter = DownloadWaiter<DownloadResult>()
        return try await withTaskCancellationHandler {
            try await waiter.wait {
                download(url, options: options, decoding: decoding, progress: progress, partial: partial) { result in
                    waiter.resume(with: result)
                }
            }
        } onCancel: {
            waiter.cancel()
        }
    }

    /// Downloads `url` only if it changed since the caller stored it: sends `If-None-Match` and
    /// `If-Modified-Since` from `validators`; a 304 completes as ``RevalidationResult/notModified(_:)``
    /// with no image and no error (issue item 6; SPEC DL-03, DL-04, K-09).
    ///
    /// Callers sending the same validators for the same URL share one request; plain ``image(for:options:decoding:progress:partial:)``
    /// callers do not join a conditional request. With empty validators this is an ordinary download.
    /// - Parameters:
    ///   - url: An `http` or `https` URL.
    ///   - validators: What the caller stored with its copy (``DownloadResult/validators``).
    ///   - options: Priority and other per-request flags.
    ///   - decoding: How to decode a new image.
    ///   - progress: Called as bytes arrive.
    /// - Returns: `.notModified`, or `.modified` with the new image.
    /// - Throws: ``ImageDownloadError``.
    public func revalidate(
        _ url: URL,
        validators: Validators,
        options: DownloadOptions = [],
        decoding: ImageDecodingOptions = .init(),
        progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws -> RevalidationResult {
        let waiter = DownloadWaiter<RevalidationResult>()
        return try await withTaskCancellationHandler {
            try await waiter.wait {
                subscribe(
                    url, options: options, validators: validators, decoding: decoding, progress: progress, partial: nil
                ) { result in
                    waiter.resume(with: result.flatMap(\.revalidation))
                }
            }
        } onCancel: {
            waiter.cancel()
        }
    }

    /// Downloads the bytes of `url` without decoding them (the checks on status, content type and size
    /// still apply), sharing the request with every other caller of the URL.
    ///
    /// ```swift
    /// let original = try await downloader.data(for: url).data   // to store or forward as it is
    /// ```
    /// - Throws: ``ImageDownloadError``.
    public func data(
        for url: URL, options: DownloadOptions = [], progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws -> DownloadedData {
        let waiter = DownloadWaiter<DownloadedData>()
        return try await withTaskCancellationHandler {
            try await waiter.wait {
                subscribe(url, options: options, validators: nil, decoding: nil, progress: progress, partial: nil) { result in
                    waiter.resume(with: result.flatMap(\.bytes))
                }
            }
        } onCancel: {
            waiter.cancel()
        }
    }
}

/// Joins a callback-style download to one awaiting task: resumes it exactly once, with the result or
/// with `cancelled` when the task is cancelled first (in which case the token is cancelled too).
///
/// The result travels through the waiter's lock, not through the continuation, so that ThreadSanitizer
/// sees the hand-off (see `withHandOff`).
private final class DownloadWaiter<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var token: DownloadToken?
        var result: Result<Value, ImageDownloadError>?
    }

    private let state = LockedValue(State())

    /// Starts the download with `start` (unless the task was already cancelled) and suspends until
    /// ``resume(with:)`` or ``cancel()``; returns the result or throws the error.
    func wait(_ start: () -> DownloadToken) async throws(ImageDownloadError) -> Value {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isDone = state.withLock { state in
                if state.result != nil { return true }
                state.continuation = continuation
                return false
            }
            if isDone {
                continuation.resume()
                return
            }
            let token = start()
            let cancelNow = state.withLock { state in
                state.token = token
                return state.result.map { if case .failure(let error) = $0 { error.code == .cancelled } else { false } } ?? false
            }
            if cancelNow { token.cancel() }
        }
        guard let result = state.withLock({ $0.result }) else {
            preconditionFailure("DownloadWaiter resumed without a result")
        }
        return try result.get()
    }

    func resume(with result: Result<Value, ImageDownloadError>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    func cancel() {
        let (continuation, token) = state.withLock { state -> (CheckedContinuation<Void, Never>?, DownloadToken?) in
            guard state.result == nil else { return (nil, nil) }
            state.result = .failure(ImageDownloadError.cancelled("the task was cancelled"))
            defer { state.continuation = nil }
            return (state.continuation, state.token)
        }
        token?.cancel()
        continuation?.resume()
    }
}
