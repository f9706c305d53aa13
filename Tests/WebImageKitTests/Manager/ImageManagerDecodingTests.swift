import Foundation
import Glibc
import Testing
import WebImageKit
import WebImageTestSupport

/// The manager's one decode stage (issue 13): its coder registry decodes every path, and the synchronous
/// query options answer before the callback form returns (MG-15).
@Suite struct ImageManagerDecodingTests {
    @Test func theManagersRegistryDecodesTheNetworkTheDiskAndDerivedImages() async throws {
        let counter = CountingCoder()
        let fixture = try ManagerFixture(configuration: .init(coders: ImageCodersManager(coders: [counter])))
        defer { fixture.remove() }
        let url = MockLoader.url("registry.png")
        fixture.loader.serve(url, width: 8, height: 6)
        _ = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])   // network
        #expect(counter.decodeCount == 1)
        fixture.cache.clearMemory()
        let fromDisk = try await fixture.manager.loadImage(from: url)   // disk hit
        #expect(fromDisk.cacheType == .disk)
        #expect(counter.decodeCount == 2)
        var context = ImageLoadContext()
        context.thumbnailPixelSize = PixelSize(width: 4, height: 3)
        let derived = try await fixture.manager.loadImage(from: url, context: context)   // from the cached original
        #expect(derived.cacheType == .disk && derived.image.pixelSize == PixelSize(width: 4, height: 3))
        #expect(counter.decodeCount == 3)
        #expect(fixture.loader.loads(of: url) == 1)
    }

    @Test func aContextRegistryWinsAndAnEmptyOneDecodesNothing() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("empty-registry.png")
        fixture.loader.serve(url)
        var context = ImageLoadContext()
        context.coders = ImageCodersManager(coders: [])
        await #expect { _ = try await fixture.manager.loadImage(from: url, context: context) } throws: { error in
            (error as? ImageLoadError)?.downloadError?.code == .decodeFailed
        }
        #expect(try await fixture.manager.loadImage(from: url, options: [.retryFailed]).image.pixelSize == PixelSize(width: 8, height: 6))
    }

    @Test func mg15QueryDiskDataSyncDeliversADiskHitBeforeLoadImageReturns() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("sync.png")
        fixture.loader.serve(url)
        _ = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])
        fixture.cache.clearMemory()
        let delivered = LockedValue<ImageLoadResult?>(nil)
        let operation = fixture.manager.loadImage(with: url, options: [.queryDiskDataSync]) { result in
            delivered.withLock { $0 = try? result.get() }
        }
        let hit = try #require(delivered.withLock { $0 })   // before loadImage(with:) returned
        #expect(hit.cacheType == .disk && hit.data != nil)
        #expect(operation.isFinished)
        #expect(fixture.loader.loads(of: url) == 1)
    }

    @Test func mg15QueryMemoryDataSyncDeliversTheBytesWithAMemoryHitBeforeReturning() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("sync-memory.png")
        fixture.loader.serve(url)
        let loaded = try await fixture.manager.loadImage(from: url, options: [.waitStoreCache])
        let delivered = LockedValue<ImageLoadResult?>(nil)
        fixture.manager.loadImage(with: url, options: [.queryMemoryData, .queryMemoryDataSync]) { result in
            delivered.withLock { $0 = try? result.get() }
        }
        let hit = try #require(delivered.withLock { $0 })
        #expect(hit.cacheType == .memory && hit.image === loaded.image)
        #expect(hit.data == loaded.data)
    }
}

/// `ImageCache.flush()` waits for the disk writes a load started in the background (issue 13).
@Suite struct ImageCacheFlushTests {
    @Test func flushWaitsForTheManagersBackgroundDiskWrite() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("flush.png")
        fixture.loader.serve(url)
        fixture.cache.diskCache.enqueue { _ in usleep(200_000) }   // a busy I/O queue: the store waits behind it
        let loaded = try await fixture.manager.loadImage(from: url)   // no .waitStoreCache
        await fixture.cache.flush()
        #expect(fixture.cache.storedDataSynchronously(forKey: url.absoluteString) == loaded.data)
    }
}

/// A loaded image's cache type reads right through an optional (issue 13: `.none` collided with `Optional.none`).
@Suite struct ImageCacheTypeNamingTests {
    @Test func aNetworkLoadIsNotCachedEvenThroughAnOptional() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("optional.png")
        fixture.loader.serve(url)
        let result: ImageLoadResult? = try await fixture.manager.loadImage(from: url)
        #expect(result?.cacheType == .notCached)
        #expect(ImageCacheType.notCached.rawValue == "none")   // the seeds' name, kept in logs and JSON
    }
}
