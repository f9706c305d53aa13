import Foundation
import Testing
import WebImageKit

/// Progressive downloads deliver partial images before the final one (SPEC DL-02, OP-28, K-11).
@Suite struct ProgressiveDownloadTests {
    enum Delivery: Sendable {
        case partial(Image)
        case final(Result<DownloadResult, ImageDownloadError>)
    }

    /// A clock that never moves: after the first partial image the throttle holds every other one back.
    static let frozenClock = DownloaderClock(now: { .zero }, sleep: { _ in })

    @Test func aHalfArrivedPNGIsDeliveredAsAFullSizePartialImageBeforeTheFinalOne() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.clock = Self.frozenClock
            try await withImageDownloader(configuration: configuration) { downloader in
                let (deliveries, sink) = AsyncStream.makeStream(of: Delivery.self)
                let url = base.appendingPathComponent("progressive")
                downloader.download(url, options: [.progressiveLoad], partial: { sink.yield(.partial($0)) }) {
                    sink.yield(.final($0))
                    sink.finish()
                }
                var partials: [Image] = []
                var final: DownloadResult?
                for await delivery in deliveries {
                    switch delivery {
                    case .partial(let image):
                        partials.append(image)
                        // The server sends the second half only now, so this partial came from the first.
                        if partials.count == 1 { await server.gates.release("/progressive/rest") }
                    case .final(let result):
                        final = try result.get()
                    }
                }
                // Frozen clock: the throttle lets exactly one partial image through.
                #expect(partials.count == 1)
                #expect(partials.first?.pixelSize == PixelSize(width: 256, height: 256))
                #expect(partials.first?.pixels != final?.image.pixels)
                #expect(final?.image.pixelSize == PixelSize(width: 256, height: 256))
                #expect(final?.data == server.largePNG)
            }
        }
    }

    @Test func withoutTheOptionNoPartialImageIsDelivered() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let partials = LockedValue(0)
                await server.gates.release("/progressive/rest")
                let result = try await downloader.image(for: base.appendingPathComponent("progressive")) { _ in
                } partial: { _ in
                    partials.withLock { $0 += 1 }
                }
                #expect(result.image.pixelSize.width == 256)
                #expect(partials.withLock { $0 } == 0)
            }
        }
    }
}
