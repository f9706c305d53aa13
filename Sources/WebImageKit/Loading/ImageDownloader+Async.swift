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
            try await withCheckedThrowingContinuation { continuation in
                guard waiter.install(continuation) else { return }
                let token = download(url, options: options, decoding: decoding, progress: progress, partial: partial) { result in
                    waiter.resume(with: result)
                }
                waiter.attach(token)
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
            try await withCheckedThrowingContinuation { continuation in
                guard waiter.install(continuation) else { return }
                let token = subscribe(
                    url, options: options, validators: validators, decoding: decoding, progress: progress, partial: nil
                ) { result in
                    waiter.resume(with: result)
                }
                waiter.attach(token)
            }
        } onCancel: {
            waiter.cancel()
        }
    }
}

/// Joins a callback-style download to one awaiting task: resumes it exactly once, with the result or
/// with `cancelled` when the task is cancelled first (in which case the token is cancelled too).
private final class DownloadWaiter<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var token: DownloadToken?
        var isCancelled = false
        var isDone = false
    }

    private let state = LockedValue(State())

    /// Stores the continuation; returns false (having resumed it) when the task was already cancelled.
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            if state.isCancelled {
                state.isDone = true
                return true
            }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: ImageDownloadError.cancelled("the task was cancelled")) }
        return !cancelled
    }

    /// Remembers the token, cancelling it at once if the task was cancelled meanwhile.
    func attach(_ token: DownloadToken) {
        let cancelNow = state.withLock { state in
            state.token = token
            return state.isCancelled
        }
        if cancelNow { token.cancel() }
    }

    func resume(with result: Result<Value, ImageDownloadError>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard !state.isDone else { return nil }
            state.isDone = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result.mapError { $0 as any Error })
    }

    func cancel() {
        let (continuation, token) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, DownloadToken?) in
            state.isCancelled = true
            guard !state.isDone else { return (nil, nil) }
            state.isDone = state.continuation != nil
            defer { state.continuation = nil }
            return (state.continuation, state.token)
        }
        token?.cancel()
        continuation?.resume(throwing: ImageDownloadError.cancelled("the task was cancelled"))
    }
}
