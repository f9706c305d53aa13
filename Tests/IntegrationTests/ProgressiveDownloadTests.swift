import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// Progressive loads deliver partial images before the final one (SPEC DL-02, OP-28, K-11): the downloader
/// hands the bytes so far to callers that ask for them, and the manager's decode stage turns them into images.
@Suite struct ProgressiveDownloadTests {
    @Test func aHalfArrivedPNGIsDeliveredAsAFullSizePartialImageBeforeTheFinalOne() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let directory = try TemporaryDirectory("manager")
                defer { directory.remove() }
                let root = directory.url
                // An hour between partial images: the throttle lets exactly one through.
                let manager = ImageManager(
                    cache: ImageCache(namespace: "progressive", root: root), loader: downloader,
                    configuration: ImageManager.Configuration(minimumProgressiveInterval: .seconds(3600)))
                let (deliveries, sink) = AsyncStream.makeStream(of: Result<ImageLoadResult, ImageLoadError>.self)
                let url = base.appendingPathComponent("progressive")
                manager.loadImage(with: url, options: [.progressiveLoad]) { result in
                    sink.yield(result)
                    if case .success(let loaded) = result, !loaded.isFinished { return }
                    sink.finish()
                }
                var partials: [Image] = []
                var final: ImageLoadResult?
                for await delivery in deliveries {
                    let loaded = try delivery.get()
                    guard loaded.isFinished else {
                        partials.append(loaded.image)
                        // The server sends the second half only now, so this partial came from the first.
                        if partials.count == 1 { await server.gates.release("/progressive/rest") }
                        continue
                    }
                    final = loaded
                }
                #expect(partials.count == 1)
                #expect(partials.first?.pixelSize == PixelSize(width: 256, height: 256))
                #expect(partials.first?.pixels != final?.image.pixels)
                #expect(final?.image.pixelSize == PixelSize(width: 256, height: 256))
                #expect(final?.data == server.largePNG)
                #expect(manager.cache.imageFromMemory(forKey: url.absoluteString) === final?.image)  // never the partial
            }
        }
    }

    @Test func onlyProgressiveCallersGetTheBytesSoFar() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                await server.gates.release("/progressive/rest")
                let url = base.appendingPathComponent("progressive")
                let plain = LockedValue(0)
                let result = try await downloader.image(for: url) { progress in
                    if progress.data != nil { plain.withLock { $0 += 1 } }
                }
                #expect(result.image.pixelSize.width == 256)
                #expect(plain.withLock { $0 } == 0)
                let withData = LockedValue<[Int]>([])
                _ = try await downloader.data(for: url, options: [.progressiveLoad]) { progress in
                    if let data = progress.data { withData.withLock { $0.append(data.count) } }
                }
                let sizes = withData.withLock { $0 }
                #expect(!sizes.isEmpty)
                #expect(sizes.last == server.largePNG.count)
            }
        }
    }
}
