import Foundation
import WebImageCore

/// Feeds the bytes of one download to progressive decoders and says which partial images to deliver
/// (SPEC DL-02, OP-28, K-11).
///
/// One decoder per distinct `ImageDecodingOptions` among the subscribers that asked for partial
/// images, as final decodes are shared. Partial images are throttled: after one is delivered, the
/// next waits until ``ImageDownloader/Configuration/minimumProgressiveInterval`` has passed on the
/// configured clock (the first is delivered as soon as something is decodable). An image the decoder
/// reports complete is never delivered as partial: the final decode delivers it. As in SDWebImage,
/// nothing is decoded progressively when the response declares no `Content-Length` (K-11).
///
/// Used by one transfer task only, one call at a time (decoders are not `Sendable`; `@unchecked` because
/// each call hands the feeder to ``WorkerThreads/processing`` and waits for it), never on an event loop.
final class ProgressiveFeeder: @unchecked Sendable {
    private let coders: ImageCodersManager
    private let interval: Duration
    private let clock: DownloaderClock
    private var decoders: [ImageDecodingOptions: any ProgressiveDecoder] = [:]
    /// Option sets whose decoder failed or does not exist: not tried again.
    private var given: Set<ImageDecodingOptions> = []
    private var lastDelivery: Duration?

    init(coders: ImageCodersManager, interval: Duration, clock: DownloaderClock) {
        self.coders = coders
        self.interval = interval
        self.clock = clock
    }

    /// Decodes `data` (every byte so far) for the subscribers that want partial images, if the
    /// throttle allows; returns the subscriber/image pairs to deliver. Decodes on ``WorkerThreads/processing``.
    func feed(_ data: Data, expectedBytes: Int?, subscribers: [DownloadSubscriber]) async -> [(DownloadSubscriber, Image)] {
        guard let expectedBytes, expectedBytes > 0, data.count < expectedBytes,
              subscribers.contains(where: { $0.partial != nil })
        else { return [] }
        let now = clock.now()
        if let lastDelivery, now - lastDelivery < interval { return [] }
        return await WorkerThreads.processing.run { [self] in
            decodePartials(data, subscribers: subscribers, now: now).map { Delivery(subscriber: $0.0, image: $0.1) }
        }.map { ($0.subscriber, $0.image) }
    }

    private struct Delivery: Sendable {
        let subscriber: DownloadSubscriber
        let image: Image
    }

    private func decodePartials(_ data: Data, subscribers: [DownloadSubscriber], now: Duration) -> [(DownloadSubscriber, Image)] {
        let wanting = subscribers.filter { $0.partial != nil }
        var images: [ImageDecodingOptions: Image] = [:]
        var deliveries: [(DownloadSubscriber, Image)] = []
        for subscriber in wanting {
            guard let options = subscriber.decoding else { continue }
            if images[options] == nil, !given.contains(options) {
                images[options] = decode(data, options: options)
            }
            if let image = images[options] { deliveries.append((subscriber, image)) }
        }
        if !deliveries.isEmpty { lastDelivery = now }
        return deliveries
    }

    private func decode(_ data: Data, options: ImageDecodingOptions) -> Image? {
        guard let decoder = decoders[options] ?? (options.coders ?? coders).makeProgressiveDecoder(for: data, options: options) else {
            // Too few bytes to recognise the format yet: try again with the next chunk.
            if ImageFormat(detecting: data) != .unknown { given.insert(options) }
            return nil
        }
        decoders[options] = decoder
        do {
            guard let image = try decoder.decode(data), !decoder.isComplete else { return nil }
            return image
        } catch {
            // Corrupt so far: stop showing partial images; the final decode reports the error.
            given.insert(options)
            decoders[options] = nil
            return nil
        }
    }
}
