import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// The manager's load rules with a mock loader and a temporary disk cache (SPEC MG-*, CO-*).
@Suite struct ImageManagerTests {
    @Test func mg43AnEmptyURLFailsAtOnceWithInvalidURL() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let deliveries = Deliveries()
        let operation = fixture.manager.loadImage(with: URL(string: ""), completed: deliveries.completion)
        #expect(deliveries.count == 1)  // before loadImage returned
        guard case .failure(let error) = deliveries.all.first else { Issue.record("expected a failure"); return }
        #expect(error.code == .invalidURL)
        #expect(operation.isFinished)
        #expect(!fixture.manager.isRunning)
    }

    @Test func mg29TheSharedManagerCanBeReplacedToConfigureIt() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("shared.png")
        fixture.loader.serve(url, width: 5, height: 3)
        let original = ImageManager.shared
        ImageManager.shared = fixture.manager
        defer { ImageManager.shared = original }
        #expect(ImageManager.shared === fixture.manager)
        let loaded = try await ImageManager.shared.loadImage(from: url)   // through the replacement's loader
        #expect(loaded.image.pixelSize == PixelSize(width: 5, height: 3))
        #expect(fixture.loader.loads(of: url) == 1)
    }

    @Test func mg40AStringIsTurnedIntoAURL() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        let deliveries = Deliveries()
        fixture.manager.loadImage(with: url.absoluteString, completed: deliveries.completion)
        let result = try #require(await deliveries.next()).get()
        #expect(result.url == url)
    }

    @Test func mg61AColdLoadDownloadsAndAWarmLoadIsAMemoryHitWithoutTheLoader() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url, width: 8, height: 6)
        let cold = try await fixture.manager.loadImage(from: url)
        #expect(cold.cacheType == .notCached)
        #expect(cold.image.pixelSize == PixelSize(width: 8, height: 6))
        #expect(cold.data != nil)

        let deliveries = Deliveries()
        fixture.manager.loadImage(with: url, completed: deliveries.completion)
        #expect(deliveries.count == 1)  // a memory hit is delivered before loadImage returns
        #expect(try deliveries.all.first?.get().cacheType == .memory)
        #expect(fixture.loader.loads(of: url) == 1)
    }

    @Test func ic21ADiskHitIsDecodedAndReportedAsDisk() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        _ = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])
        fixture.cache.clearMemory()
        let again = try await fixture.manager.loadImage(from: url)
        #expect(again.cacheType == .disk)
        #expect(fixture.loader.loads(of: url) == 1)
    }

    @Test func mg52APermanentErrorPutsTheURLOnTheFailedListAndItFailsAtOnceAfterwards() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("missing.png")
        fixture.loader.fail(url, with: ImageDownloadError(.badStatus(404), "not found"))
        await #expect(throws: ImageLoadError.self) { try await fixture.manager.loadImage(from: url) }
        #expect(fixture.manager.failedURLs.contains(url))
        do {
            _ = try await fixture.manager.loadImage(from: url)
            Issue.record("a blocked URL must fail")
        } catch {
            #expect(error.code == .blockedURL)
        }
        #expect(fixture.loader.loads(of: url) == 1)
    }

    @Test func mg52ATransientErrorDoesNotBlockTheURL() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("slow.png")
        fixture.loader.fail(url, with: ImageDownloadError(.timeout, "timed out"))
        for _ in 0..<2 {
            do {
                _ = try await fixture.manager.loadImage(from: url)
            } catch {
                #expect(error.code == .loadFailed)
                #expect(error.downloadError?.code == .timeout)
            }
        }
        #expect(fixture.manager.failedURLs.isEmpty)
        #expect(fixture.loader.loads(of: url) == 2)
    }

    @Test func mg01AndMG53RetryFailedBypassesTheListAndASuccessRemovesTheURL() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("flaky.png")
        fixture.loader.fail(url, with: ImageDownloadError(.badStatus(500), "server error"))
        _ = try? await fixture.manager.loadImage(from: url)
        #expect(fixture.manager.failedURLs.contains(url))
        fixture.loader.serve(url)
        let result = try await fixture.manager.loadImage(from: url, options: [.retryFailed])
        #expect(result.cacheType == .notCached)
        #expect(!fixture.manager.failedURLs.contains(url))
    }

    @Test func mg22TheDelegateDecidesWhetherAFailedURLIsBlocked() async throws {
        final class Delegate: ImageManagerDelegate {
            func imageManager(_ manager: ImageManager, shouldBlockFailedURL url: URL, error: ImageLoadError) -> Bool {
                error.isTransient  // the opposite of the default
            }
        }
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let delegate = Delegate()
        fixture.manager.delegate = delegate
        let permanent = MockLoader.url("permanent.png")
        let transient = MockLoader.url("transient.png")
        fixture.loader.fail(permanent, with: ImageDownloadError(.badStatus(404), "not found"))
        fixture.loader.fail(transient, with: ImageDownloadError(.badStatus(503), "busy"))
        _ = try? await fixture.manager.loadImage(from: permanent)
        _ = try? await fixture.manager.loadImage(from: transient)
        #expect(fixture.manager.failedURLs == [transient])
    }

    @Test func mg20AndMG62TheDelegateCanRefuseADownload() async throws {
        final class Delegate: ImageManagerDelegate {
            func imageManager(_ manager: ImageManager, shouldDownloadImageFor url: URL) -> Bool { false }
        }
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let delegate = Delegate()
        fixture.manager.delegate = delegate
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        do {
            _ = try await fixture.manager.loadImage(from: url)
            Issue.record("the download was refused")
        } catch {
            #expect(error.code == .downloadNotAllowed)
        }
        #expect(fixture.loader.totalLoads == 0)
        #expect(fixture.manager.failedURLs.isEmpty)
    }

    @Test func mg14FromCacheOnlyNeverLoadsAndFailsWithNotCachedOnAMiss() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        do {
            _ = try await fixture.manager.loadImage(from: url, options: [.fromCacheOnly])
            Issue.record("a miss with fromCacheOnly must fail")
        } catch {
            #expect(error.code == .notCached)
        }
        #expect(fixture.loader.totalLoads == 0)
        _ = try await fixture.manager.loadImage(from: url)
        let hit = try await fixture.manager.loadImage(from: url, options: [.fromCacheOnly])
        #expect(hit.cacheType == .memory)
    }

    @Test func fromLoaderOnlySkipsTheCacheButStillStores() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        _ = try await fixture.manager.loadImage(from: url)
        let again = try await fixture.manager.loadImage(from: url, options: [.fromLoaderOnly])
        #expect(again.cacheType == .notCached)
        #expect(fixture.loader.loads(of: url) == 2)
    }

    @Test func mg03AndMG54CacheMemoryOnlyWritesNothingToDisk() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        _ = try await fixture.manager.loadImage(from: url, options: [.cacheMemoryOnly, .waitStoreCache])
        #expect(await fixture.cache.contains(url.absoluteString, cacheType: .disk) == .notCached)
        #expect(await fixture.cache.contains(url.absoluteString, cacheType: .memory) == .memory)
    }

    @Test func waitStoreCacheDeliversOnlyAfterTheDiskWrite() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        _ = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])
        #expect(await fixture.cache.diskCache.contains(url.absoluteString))
    }

    @Test func mg25AndMG64TheCacheKeyFilterNamesTheEntry() async throws {
        let filter: @Sendable (URL) -> String = { url in
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.query = nil
            return components?.string ?? url.absoluteString
        }
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let loader = MockLoader()
        let manager = ImageManager(
            cache: ImageCache(namespace: "filter", root: root.url), loader: loader,
            configuration: .init(cacheKeyFilter: filter))
        let first = URL(string: "mock://images/a.png?token=1")!
        let second = URL(string: "mock://images/a.png?token=2")!
        loader.serve(first)
        loader.serve(second)
        #expect(manager.cacheKey(for: first) == "mock://images/a.png")
        #expect(manager.cacheKey(for: nil) == "")
        _ = try await manager.loadImage(from: first)
        let hit = try await manager.loadImage(from: second)
        #expect(hit.cacheType == .memory)
        #expect(loader.totalLoads == 1)
    }

    @Test func cp02AnAt2xKeyGivesTheDownloadedImageScale2() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("icon@2x.png")
        fixture.loader.serve(url)
        #expect(try await fixture.manager.loadImage(from: url).image.scale == 2)
        var context = ImageLoadContext()
        context.scaleFactor = 3
        #expect(try await fixture.manager.loadImage(from: url, context: context).image.scale == 3)
    }

    /// A 64×48 PNG of noise: half its bytes hold whole rows.
    static let noisePNG: Data = {
        var pixels = PixelBuffer(width: 64, height: 48)
        var seed: UInt32 = 7
        for y in 0..<48 {
            for x in 0..<64 {
                seed = seed &* 1_103_515_245 &+ 12_345
                pixels[x, y] = RGBA(red: UInt8(truncatingIfNeeded: seed >> 16), green: UInt8(truncatingIfNeeded: seed >> 8), blue: 9)
            }
        }
        return (try? ImageCodersManager.shared.encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())) ?? Data()
    }()

    @Test func mg58ProgressiveLoadsDeliverPartialImagesThatAreNeverCached() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("progressive.png")
        fixture.loader.state.withLock { $0.replies[url] = .image(Self.noisePNG, etag: nil) }
        fixture.loader.sendPartialData()
        fixture.loader.hold()
        let deliveries = Deliveries()
        fixture.manager.loadImage(with: url, options: [.progressiveLoad], completed: deliveries.completion)
        let partial = try #require(await deliveries.next()).get()   // decoded from the first half of the bytes
        #expect(!partial.isFinished)
        #expect(partial.image.pixelSize == PixelSize(width: 64, height: 48))
        fixture.loader.release()
        let whole = try #require(await deliveries.next()).get()
        #expect(whole.isFinished)
        #expect(fixture.cache.imageFromMemory(forKey: url.absoluteString) === whole.image)
        #expect(deliveries.count == 2)
    }

    @Test func progressIsReportedToTheCaller() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        let received = LockedValue<[DownloadProgress]>([])
        _ = try await fixture.manager.loadImage(from: url) { progress in received.withLock { $0.append(progress) } }
        #expect(received.withLock { $0.last?.url } == url)
    }

    @Test func mg35AndMG70IsRunningWhileALoadIsInFlight() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        fixture.loader.hold()
        let deliveries = Deliveries()
        fixture.manager.loadImage(with: url, completed: deliveries.completion)
        #expect(fixture.manager.isRunning)
        fixture.loader.release()
        _ = await deliveries.next()
        try await fixture.waitUntilIdle()
        #expect(!fixture.manager.isRunning)
    }

    @Test func mg36AndMG37CacheExistenceChecks() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("a.png")
        fixture.loader.serve(url)
        #expect(await fixture.manager.cachedImageExists(for: url) == .notCached)
        _ = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])
        #expect(await fixture.manager.cachedImageExists(for: url) == .memory)
        #expect(await fixture.manager.cache.contains(fixture.manager.cacheKey(for: url), cacheType: .disk) == .disk)
    }

    @Test func mg33AndMG68SaveImageToCacheStoresUnderTheURLKey() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("saved.png")
        let image = Image(pixels: PixelBuffer(width: 2, height: 2, fill: RGBA(red: 9, green: 9, blue: 9)))
        try await fixture.manager.saveImageToCache(image, for: url)
        #expect(await fixture.manager.cache.contains(fixture.manager.cacheKey(for: url), cacheType: .disk) == .disk)
        #expect(try await fixture.manager.loadImage(from: url).image === image)
    }
}
