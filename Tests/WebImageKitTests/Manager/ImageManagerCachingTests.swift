import CoreMetrics
import Foundation
import MetricsTestKit
import Testing
import WebImageKit
import WebImageTestSupport

/// Refresh, transforms, thumbnails and the original bytes (SPEC MG-48, MG-55, MG-57), and metrics.
@Suite struct ImageManagerCachingTests {
    @Test func mg48AndMG55RefreshCachedDeliversTheCachedImageAndNothingMoreWhenUnchanged() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("avatar.png")
        fixture.loader.serve(url, etag: "\"v1\"")
        _ = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])
        let deliveries = Deliveries()
        fixture.manager.loadImage(with: url, options: [.refreshCached], completed: deliveries.completion)
        let cached = try #require(await deliveries.next()).get()
        #expect(cached.cacheType == .memory)
        try await fixture.waitUntilIdle()
        #expect(fixture.loader.revalidations(of: url) == 1)
        #expect(deliveries.count == 1)
        #expect(fixture.loader.loads(of: url) == 1)
    }

    @Test func mg48RefreshCachedDeliversASecondResultWhenTheImageChanged() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("avatar.png")
        fixture.loader.serve(url, width: 8, height: 6, etag: "\"v1\"")
        _ = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])
        fixture.loader.serve(url, width: 10, height: 5, etag: "\"v2\"")
        let deliveries = Deliveries()
        fixture.manager.loadImage(with: url, options: [.refreshCached, .waitStoreCache], completed: deliveries.completion)
        let cached = try #require(await deliveries.next()).get()
        let fresh = try #require(await deliveries.next()).get()
        #expect(cached.image.pixelSize == PixelSize(width: 8, height: 6))
        #expect(fresh.image.pixelSize == PixelSize(width: 10, height: 5))
        #expect(fresh.cacheType == .notCached)
        #expect(fixture.cache.imageFromMemory(forKey: url.absoluteString)?.pixelSize == PixelSize(width: 10, height: 5))
        // The async form returns the newest image.
        fixture.loader.serve(url, width: 12, height: 4, etag: "\"v3\"")
        let newest = try await fixture.manager.loadImage(from: url, options: [.refreshCached])
        #expect(newest.image.pixelSize == PixelSize(width: 12, height: 4))
    }

    @Test func transformedImagesAreCachedUnderKeyPlusTransformerKeyAndTheOriginalBytesOnce() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("photo.png")
        fixture.loader.serve(url)
        var context = ImageLoadContext()
        context.transformer = CountingTransformer(key: "tint")
        let transformed = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache], context: context)
        let key = url.absoluteString
        #expect(fixture.cache.imageFromMemory(forKey: "\(key)-tint") === transformed.image)
        #expect(await fixture.cache.diskCache.contains(key))           // the original bytes
        #expect(await fixture.cache.diskCache.contains("\(key)-tint"))  // the transformed image
        #expect(fixture.cache.imageFromMemory(forKey: key) == nil)     // the original image is not kept decoded

        // Another transformer and a thumbnail come from the original bytes: no second download.
        var other = ImageLoadContext()
        other.transformer = CountingTransformer(key: "other")
        let second = try await fixture.manager.loadImage(from: url, context: other)
        #expect(second.cacheType == .disk)
        var thumbnail = ImageLoadContext()
        thumbnail.thumbnailPixelSize = PixelSize(width: 4, height: 3)
        let small = try await fixture.manager.loadImage(from: url, context: thumbnail)
        #expect(small.image.pixelSize == PixelSize(width: 4, height: 3))
        #expect(fixture.loader.loads(of: url) == 1)
        let again = try await fixture.manager.loadImage(from: url, context: thumbnail)
        #expect(again.cacheType == .memory)
    }

    @Test func mg11AnimatedImagesAreNotTransformedUnlessAsked() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("anim.gif")
        let frames = [RGBA(red: 255, green: 0, blue: 0), RGBA(red: 0, green: 255, blue: 0)].map {
            ImageFrame(pixels: PixelBuffer(width: 4, height: 4, fill: $0), duration: .milliseconds(100))
        }
        let gif = try ImageCodersManager.shared.encode(Image(frames: frames, format: .gif), as: .gif, options: ImageEncodingOptions())
        fixture.loader.state.withLock { $0.replies[url] = .image(gif, etag: nil) }
        let transformer = CountingTransformer()
        var context = ImageLoadContext()
        context.transformer = transformer
        let plain = try await fixture.manager.loadImage(from: url, context: context)
        #expect(plain.image.isAnimated)
        #expect(transformer.count == 0)
        let transformed = try await fixture.manager.loadImage(from: url, options: [.transformAnimatedImage], context: context)
        #expect(transformer.count == 2)  // both frames
        #expect(transformed.image.isAnimated)
    }

    @Test func mg21AndMG57TheDelegateTransformRunsBeforeStoringAndTheImageIsReencoded() async throws {
        final class Delegate: ImageManagerDelegate {
            func imageManager(_ manager: ImageManager, transformDownloadedImage image: Image, for url: URL) -> Image {
                Image(pixels: PixelBuffer(width: 1, height: 1, fill: RGBA(red: 0, green: 0, blue: 0)))
            }
        }
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let delegate = Delegate()
        fixture.manager.delegate = delegate
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url, width: 8, height: 6)
        let result = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])
        #expect(result.image.pixelSize == PixelSize(width: 1, height: 1))
        fixture.cache.clearMemory()
        let fromDisk = try await fixture.manager.loadImage(from: url)
        #expect(fromDisk.image.pixelSize == PixelSize(width: 1, height: 1))
    }

    @Test func theContextCacheSerializerChoosesTheStoredBytes() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        var context = ImageLoadContext()
        context.cacheSerializer = { _, data, _ in data.map { Data("prefix".utf8) + $0 } }
        _ = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache], context: context)
        let stored = try #require(await fixture.cache.storedData(forKey: url.absoluteString)?.data)
        #expect(stored.starts(with: Data("prefix".utf8)))
    }

    @Test func decodeFirstFrameOnlyHasItsOwnKeyAndReusesTheOriginal() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("anim.gif")
        let frames = (0..<3).map { ImageFrame(pixels: PixelBuffer(width: 4, height: 4, fill: RGBA(red: UInt8($0 * 80), green: 0, blue: 0)), duration: .milliseconds(50)) }
        let gif = try ImageCodersManager.shared.encode(Image(frames: frames, format: .gif), as: .gif, options: ImageEncodingOptions())
        fixture.loader.state.withLock { $0.replies[url] = .image(gif, etag: nil) }
        let whole = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])
        #expect(whole.image.frames.count == 3)
        let first = try await fixture.manager.loadImage(from: url, options: [.decodeFirstFrameOnly])
        #expect(first.image.frames.count == 1)
        #expect(fixture.loader.loads(of: url) == 1)
        #expect(fixture.cache.imageFromMemory(forKey: url.absoluteString)?.frames.count == 3)
    }

    @Test func countersCountHitsDownloadsFailuresAndBytes() async throws {
        let metrics = TestMetrics()
        let fixture = try ManagerFixture(metrics: metrics)
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        let cold = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])
        _ = try await fixture.manager.loadImage(from: url)
        fixture.cache.clearMemory()
        _ = try await fixture.manager.loadImage(from: url)
        let missing = MockLoader.url("missing.png")
        _ = try? await fixture.manager.loadImage(from: missing)
        #expect(metrics.counterTotal(label: "webimagekit_downloads_total") == 1)
        #expect(metrics.counterTotal(label: "webimagekit_memory_hits_total") == 1)
        #expect(metrics.counterTotal(label: "webimagekit_disk_hits_total") == 1)
        #expect(metrics.counterTotal(label: "webimagekit_failures_total") == 1)
        #expect(metrics.counterTotal(label: "webimagekit_downloaded_bytes_total") == Int64(cold.data?.count ?? -1))
        #expect(metrics.counterTotal(label: "webimagekit_damaged_images_total") == 0)
    }

    @Test func aDamagedDownloadIsShownAsFarAsItDecodesAndCounted() async throws {
        let metrics = TestMetrics()
        let fixture = try ManagerFixture(metrics: metrics)
        defer { fixture.remove() }
        let url = MockLoader.url("cut.jpg")
        let clean = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 64, height: 48)), as: .jpeg, options: .init())
        fixture.loader.serve(url, data: clean.prefix(clean.count * 3 / 5))
        let result = try await fixture.manager.loadImage(from: url)
        #expect(result.image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(result.image.issues.first?.kind == .truncated)
        #expect(metrics.counterTotal(label: "webimagekit_damaged_images_total") == 1)
    }
}
