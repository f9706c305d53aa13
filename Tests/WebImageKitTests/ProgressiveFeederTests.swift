import Foundation
import Testing
import WebImageCore
@testable import WebImageKit

/// Throttling and sharing of partial images (SPEC DL-02, K-11).
@Suite struct ProgressiveFeederTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        let time = LockedValue<Duration>(.zero)
        var clock: DownloaderClock { DownloaderClock(now: { [self] in time.withLock { $0 } }, sleep: { _ in }) }
        func advance(_ duration: Duration) { time.withLock { $0 += duration } }
    }

    static func subscriber(_ id: UInt64, decoding: ImageDecodingOptions = .init(), wantsPartials: Bool = true) -> DownloadSubscriber {
        var partial: (@Sendable (Image) -> Void)?
        if wantsPartials { partial = { (_: Image) in } }
        return DownloadSubscriber(id: id, priority: .normal, decoding: decoding, progress: nil, partial: partial, completion: { _ in })
    }

    let png: Data

    init() throws {
        png = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 128, height: 128)), as: .png, options: .init())
    }

    @Test func partialImagesWaitForTheMinimumIntervalAndTheCompleteImageIsNeverPartial() async {
        let time = ManualClock()
        let feeder = ProgressiveFeeder(coders: .shared, interval: .milliseconds(100), clock: time.clock)
        let subscribers = [Self.subscriber(1)]
        let total = png.count
        #expect(await feeder.feed(png.prefix(total / 3), expectedBytes: total, subscribers: subscribers).count == 1)
        time.advance(.milliseconds(50))
        #expect(await feeder.feed(png.prefix(total / 2), expectedBytes: total, subscribers: subscribers).isEmpty)
        time.advance(.milliseconds(60))
        let later = await feeder.feed(png.prefix(2 * total / 3), expectedBytes: total, subscribers: subscribers)
        #expect(later.first?.1.pixelSize == PixelSize(width: 128, height: 128))
        time.advance(.seconds(1))
        #expect(await feeder.feed(png, expectedBytes: total, subscribers: subscribers).isEmpty)
    }

    @Test func subscribersWithEqualOptionsShareOneImageAndOthersGetTheirOwn() async {
        let feeder = ProgressiveFeeder(coders: .shared, interval: .zero, clock: ManualClock().clock)
        let thumbnail = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 32, height: 32))
        let subscribers = [Self.subscriber(1), Self.subscriber(2), Self.subscriber(3, decoding: thumbnail), Self.subscriber(4, wantsPartials: false)]
        let deliveries = await feeder.feed(png.prefix(png.count / 2), expectedBytes: png.count, subscribers: subscribers)
        #expect(deliveries.map(\.0.id) == [1, 2, 3])
        #expect(deliveries[0].1 === deliveries[1].1)
        #expect(deliveries[2].1.pixelSize == PixelSize(width: 32, height: 32))
    }

    @Test func nothingIsDecodedWithoutAnExpectedSize() async {  // SPEC K-11
        let feeder = ProgressiveFeeder(coders: .shared, interval: .zero, clock: ManualClock().clock)
        #expect(await feeder.feed(png.prefix(png.count / 2), expectedBytes: nil, subscribers: [Self.subscriber(1)]).isEmpty)
    }
}
