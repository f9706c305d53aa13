import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// Original bytes on disk past ``ImageManager/Configuration/revalidationInterval``, and ``ImageManager/loadData(from:options:)``.
@Suite struct ImageManagerRevalidationTests {
    /// A fixture whose manager revalidates what it stored longer ago than `interval`, with no memory cache in the way.
    func fixture(revalidatingAfter interval: Duration?) throws -> ManagerFixture {
        try ManagerFixture(configuration: ImageManager.Configuration(revalidationInterval: interval))
    }

    @Test func staleOriginalBytesAreRevalidatedAndA304KeepsThem() async throws {
        let fixture = try fixture(revalidatingAfter: .zero)
        defer { fixture.remove() }
        let url = MockLoader.url("photo.png")
        fixture.loader.serve(url, width: 8, height: 6, etag: "\"v1\"")
        _ = try await fixture.manager.loadData(from: url, options: [.waitStoreCache])
        let again = try await fixture.manager.loadData(from: url, options: [.waitStoreCache])
        #expect(fixture.loader.loads(of: url) == 1)
        #expect(fixture.loader.revalidations(of: url) == 1)
        #expect(again.response.validators.etag == "\"v1\"")
        #expect(try ImageCodersManager.shared.decode(again.data, options: .init()).pixelSize == PixelSize(width: 8, height: 6))
    }

    @Test func staleOriginalBytesAreReplacedWhenTheOriginHasNewOnes() async throws {
        let fixture = try fixture(revalidatingAfter: .zero)
        defer { fixture.remove() }
        let url = MockLoader.url("photo.png")
        fixture.loader.serve(url, width: 8, height: 6, etag: "\"v1\"")
        _ = try await fixture.manager.loadData(from: url, options: [.waitStoreCache])
        fixture.loader.serve(url, width: 10, height: 5, etag: "\"v2\"")
        let thumbnail = ImageLoadContext(thumbnailPixelSize: PixelSize(width: 4, height: 4))
        let loaded = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache], context: thumbnail)
        #expect(loaded.image.pixelSize == PixelSize(width: 4, height: 2))
        let stored = try #require(await fixture.cache.storedData(forKey: url.absoluteString, cacheType: .disk)?.data)
        #expect(try ImageCodersManager.shared.decode(stored, options: .init()).pixelSize == PixelSize(width: 10, height: 5))
    }

    @Test func aFailedRevalidationKeepsTheCachedBytes() async throws {
        let fixture = try fixture(revalidatingAfter: .zero)
        defer { fixture.remove() }
        let url = MockLoader.url("photo.png")
        fixture.loader.serve(url, etag: "\"v1\"")
        let first = try await fixture.manager.loadData(from: url, options: [.waitStoreCache])
        fixture.loader.fail(url, with: ImageDownloadError(.network, "the origin is down"))
        let again = try await fixture.manager.loadData(from: url, options: [.retryFailed])
        #expect(again.data == first.data)
        #expect(fixture.loader.revalidations(of: url) == 1)
    }

    @Test func freshOriginalBytesAreUsedWithoutAskingAndNoIntervalNeverAsks() async throws {
        for interval in [Duration.seconds(3600), nil] {
            let fixture = try fixture(revalidatingAfter: interval)
            defer { fixture.remove() }
            let url = MockLoader.url("photo.png")
            fixture.loader.serve(url, etag: "\"v1\"")
            _ = try await fixture.manager.loadData(from: url, options: [.waitStoreCache])
            _ = try await fixture.manager.loadData(from: url)
            #expect(fixture.loader.loads(of: url) == 1 && fixture.loader.revalidations(of: url) == 0, "\(String(describing: interval))")
        }
    }

    @Test func loadDataFromTheCacheOnlyFailsOnAMissWithoutLoading() async throws {
        let fixture = try fixture(revalidatingAfter: nil)
        defer { fixture.remove() }
        let url = MockLoader.url("photo.png")
        fixture.loader.serve(url)
        await #expect(throws: ImageLoadError.self) { _ = try await fixture.manager.loadData(from: url, options: [.fromCacheOnly]) }
        #expect(fixture.loader.loads(of: url) == 0)
    }

    @Test func aPlainLoadReadsItsOriginalFromTheRequestsCacheNotTheOriginalCache() async throws {
        let fixture = try fixture(revalidatingAfter: .zero)
        defer { fixture.remove() }
        let other = ImageCache(namespace: "other", root: fixture.root.url)
        let url = MockLoader.url("photo.png")
        fixture.loader.serve(url, etag: "\"v1\"")
        let context = ImageLoadContext(originalCache: other)
        _ = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache], context: context)
        fixture.cache.clearMemory()
        let again = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache], context: context)
        #expect(again.cacheType == .disk)
        #expect(fixture.loader.loads(of: url) == 1 && fixture.loader.revalidations(of: url) == 1)
    }
}
