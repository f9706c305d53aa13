import Foundation
import Testing
import WebImageCore
@testable import WebImageKit

/// Throttling of partial images (SPEC DL-02, K-11).
@Suite struct ProgressiveFeederTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        let time = LockedValue<Duration>(.zero)
        var clock: DownloaderClock { DownloaderClock(now: { [self] in time.withLock { $0 } }, sleep: { _ in }) }
        func advance(_ duration: Duration) { time.withLock { $0 += duration } }
    }

    let png: Data

    init() throws {
        png = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 128, height: 128)), as: .png, options: .init())
    }

    @Test func partialImagesWaitForTheMinimumIntervalAndTheCompleteImageIsNeverPartial() async {
        let time = ManualClock()
        let feeder = ProgressiveFeeder(coders: .shared, options: .init(), interval: .milliseconds(100), clock: time.clock)
        let total = png.count
        #expect(await feeder.feed(png.prefix(total / 3), expectedBytes: total) != nil)
        time.advance(.milliseconds(50))
        #expect(await feeder.feed(png.prefix(total / 2), expectedBytes: total) == nil)
        time.advance(.milliseconds(60))
        let later = await feeder.feed(png.prefix(2 * total / 3), expectedBytes: total)
        #expect(later?.pixelSize == PixelSize(width: 128, height: 128))
        time.advance(.seconds(1))
        #expect(await feeder.feed(png, expectedBytes: total) == nil)
    }

    @Test func partialImagesUseTheLoadsDecodingOptions() async {
        let thumbnail = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 32, height: 32))
        let feeder = ProgressiveFeeder(coders: .shared, options: thumbnail, interval: .zero, clock: ManualClock().clock)
        let partial = await feeder.feed(png.prefix(png.count / 2), expectedBytes: png.count)
        #expect(partial?.pixelSize == PixelSize(width: 32, height: 32))
    }

    @Test func nothingIsDecodedWithoutAnExpectedSize() async {  // SPEC K-11
        let feeder = ProgressiveFeeder(coders: .shared, options: .init(), interval: .zero, clock: ManualClock().clock)
        #expect(await feeder.feed(png.prefix(png.count / 2), expectedBytes: nil) == nil)
    }

    @Test func aCustomRegistryDecodesThePartialImages() async {  // issue 13: the registry reaches every path
        let empty = ImageCodersManager(coders: [])
        let feeder = ProgressiveFeeder(coders: empty, options: .init(), interval: .zero, clock: ManualClock().clock)
        #expect(await feeder.feed(png.prefix(png.count / 2), expectedBytes: png.count) == nil)
    }
}
