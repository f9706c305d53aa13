import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// The manager end to end over loopback: downloader, disk cache, memory cache (issue 6 tests).
@Suite struct ImageManagerIntegrationTests {
    @Test func aColdLoadDownloadsOnceAWarmLoadIsAMemoryHitAndAFreshManagerIsADiskHit() async throws {
        let server = try TestImageServer()
        let directory = try TemporaryDirectory("manager")
        defer { directory.remove() }
        let root = directory.url
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = base.appendingPathComponent("image/photo.png")
                let manager = ImageManager(cache: ImageCache(namespace: "it", root: root), loader: downloader)
                let cold = try await manager.loadImage(from: url, options: [.waitStoreCache])
                #expect(cold.cacheType == .notCached)
                #expect(cold.image.pixelSize == PixelSize(width: 16, height: 8))
                let warm = try await manager.loadImage(from: url)
                #expect(warm.cacheType == .memory)
                #expect(warm.image === cold.image)

                // A fresh manager and cache on the same directory: what a new process sees.
                let fresh = ImageManager(cache: ImageCache(namespace: "it", root: root), loader: downloader)
                let disk = try await fresh.loadImage(from: url)
                #expect(disk.cacheType == .disk)
                #expect(disk.image.pixelSize == cold.image.pixelSize)
                #expect(await server.log.count("/image/photo.png") == 1)
            }
        }
    }

    @Test func fiftySimultaneousLoadsOfOneURLMakeOneRequest() async throws {
        let server = try TestImageServer()
        let directory = try TemporaryDirectory("manager")
        defer { directory.remove() }
        let root = directory.url
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = base.appendingPathComponent("image/shared.png")
                let manager = ImageManager(cache: ImageCache(namespace: "it", root: root), loader: downloader)
                let results = await manager.loadImages(Array(repeating: url, count: 50))
                #expect(results.allSatisfy { (try? $0.get()) != nil })
                #expect(await server.log.count("/image/shared.png") == 1)
            }
        }
    }

    @Test func refreshCachedSendsTheStoredETagAndA304GivesNoSecondResult() async throws {
        let server = try TestImageServer()
        let directory = try TemporaryDirectory("manager")
        defer { directory.remove() }
        let root = directory.url
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = base.appendingPathComponent("etag")
                let manager = ImageManager(cache: ImageCache(namespace: "it", root: root), loader: downloader)
                _ = try await manager.loadImage(from: url, options: [.waitStoreCache])
                let results = LockedValue<[ImageCacheType]>([])
                let (ended, endedSink) = AsyncStream.makeStream(of: Void.self)
                manager.loadImage(with: url, options: [.refreshCached]) { result in
                    results.withLock { $0.append((try? result.get().cacheType) ?? .all) }
                    endedSink.yield()
                }
                var iterator = ended.makeAsyncIterator()
                _ = await iterator.next()
                for _ in 0..<5_000 where manager.isRunning { try await Task.sleep(for: .milliseconds(1)) }
                #expect(results.withLock { $0 } == [.memory])
                let conditional = await server.log.headers(of: "/etag").last
                #expect(conditional?["if-none-match"] == "\"v1\"")
                #expect(await server.log.count("/etag") == 2)
            }
        }
    }

    @Test func aServerErrorPutsTheURLOnTheFailedListAndNothingIsCached() async throws {
        let server = try TestImageServer()
        let directory = try TemporaryDirectory("manager")
        defer { directory.remove() }
        let root = directory.url
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = base.appendingPathComponent("status/404")
                let cache = ImageCache(namespace: "it", root: root)
                let manager = ImageManager(cache: cache, loader: downloader)
                await #expect(throws: ImageLoadError.self) { try await manager.loadImage(from: url) }
                #expect(manager.failedURLs == [url])
                #expect(await cache.contains(url.absoluteString) == .notCached)
            }
        }
    }

    /// A damaged file decodes as far as it goes, but a transfer cut short is a failed download (issue 31): the
    /// transfer failed, not the file, so nothing is decoded and nothing is cached.
    @Test func aTransferCutShortIsAFailedLoadAndNothingIsCached() async throws {
        let server = try TestImageServer()
        let directory = try TemporaryDirectory("manager")
        defer { directory.remove() }
        let root = directory.url
        try await server.run { base in
            try await withImageDownloader { downloader in
                let cache = ImageCache(namespace: "it", root: root)
                let manager = ImageManager(cache: cache, loader: downloader)
                for path in ["short", "reset"] {
                    let url = base.appendingPathComponent(path)
                    await #expect(throws: ImageLoadError.self) { try await manager.loadImage(from: url, options: [.waitStoreCache]) }
                    #expect(await cache.contains(url.absoluteString) == .notCached)
                }
            }
        }
    }
}
