import Foundation
import WebImageCore

/// Turns the bytes of one download so far into partial images for a progressive load: part of the
/// decode stage, used by the manager's pipeline.
///
/// One progressive decoder per load, fed on ``WorkerThreads/processing``. Partial images are throttled:
/// after one is shown, the next waits until `interval` has passed on `clock` (the first is shown as soon as
/// something is decodable), and bytes that arrive while a partial decode runs are skipped, so a slow decode
/// never queues up work. An image the decoder reports complete is never partial: the final decode delivers
/// it. As in SDWebImage, nothing is decoded progressively without a known size (`Content-Length`).
final class ProgressiveFeeder: Sendable {
    private struct State {
        var decoder: (any ProgressiveDecoder)?
        /// The format is known to have no progressive decoder, or the bytes so far are corrupt.
        var gaveUp = false
        var isBusy = false
        var lastDelivery: Duration?
    }

    private let coders: ImageCodersManager
    private let options: ImageDecodingOptions
    private let interval: Duration
    private let clock: DownloaderClock
    private let state = LockedValue(State())

    init(coders: ImageCodersManager, options: ImageDecodingOptions, interval: Duration, clock: DownloaderClock) {
        self.coders = coders
        self.options = options
        self.interval = interval
        self.clock = clock
    }

    /// Decodes `data` (every byte so far) on the decoding threads, if the throttle allows, and returns the
    /// partial image to show; `nil` when there is none.
    func feed(_ data: Data, expectedBytes: Int?) async -> Image? {
        guard let now = claim(data.count, expectedBytes: expectedBytes) else { return nil }
        return await WorkerThreads.processing.run { [self] in decode(data, claimedAt: now) }
    }

    /// Like ``feed(_:expectedBytes:)`` without waiting: for a progress callback, which must not block.
    /// `show` is called on a decoding thread with a partial image, if one comes out.
    func offer(_ data: Data, expectedBytes: Int?, show: @escaping @Sendable (Image) -> Void) {
        guard let now = claim(data.count, expectedBytes: expectedBytes) else { return }
        WorkerThreads.processing.submit { [self] in
            if let image = decode(data, claimedAt: now) { show(image) }
        }
    }

    /// Takes the right to decode now (the time of the claim), or `nil`.
    private func claim(_ count: Int, expectedBytes: Int?) -> Duration? {
        guard let expectedBytes, expectedBytes > 0, count < expectedBytes else { return nil }
        let now = clock.now()
        return state.withLock { state in
            guard !state.gaveUp, !state.isBusy else { return nil }
            if let last = state.lastDelivery, now - last < interval { return nil }
            state.isBusy = true
            return now
        }
    }

    private func decode(_ data: Data, claimedAt now: Duration) -> Image? {
        var decoder = state.withLock { $0.decoder }
        var gaveUp = false
        var image: Image?
        if decoder == nil {
            decoder = coders.makeProgressiveDecoder(for: data, options: options)
            // Too few bytes to recognise the format yet: try again with the next chunk.
            gaveUp = decoder == nil && ImageFormat(detecting: data) != .unknown
        }
        if let decoder {
            do {
                if let decoded = try decoder.decode(data), !decoder.isComplete { image = decoded }
            } catch {
                gaveUp = true  // Corrupt so far: stop showing partial images; the final decode reports the error.
            }
        }
        state.withLock { state in
            state.decoder = gaveUp ? nil : decoder
            state.gaveUp = state.gaveUp || gaveUp
            state.isBusy = false
            if image != nil { state.lastDelivery = now }
        }
        return image
    }
}
