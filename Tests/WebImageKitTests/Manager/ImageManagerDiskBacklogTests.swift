import Dispatch
import Foundation
import Testing
@testable import WebImageKit
import WebImageTestSupport

/// The disk writes a load leaves behind: counted while queued, and bounded, so that downloads faster than the
/// disk never hold more than ``ImageManager/maximumDiskBacklogBytes`` in memory.
@Suite struct ImageManagerDiskBacklogTests {
    /// Holds `cache`'s I/O queue (disk lookups too, so the loads below skip them: `fromLoaderOnly`) until the
    /// returned semaphore is signalled, which every test does on the way out, pass or fail. (The hold's own
    /// timeout, 10 minutes, is only a backstop: under the thread sanitizer a busy suite can keep a test's task
    /// from running for more than 30 s, and a hold that ended by itself would let the queued writes finish early.)
    func holdQueue(of cache: ImageCache) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        cache.diskCache.enqueue { _ in _ = release.wait(timeout: .now() + 600) }
        return release
    }

    /// Waits for a callback-form store's completion.
    func store(_ data: Data, forKey key: String, in cache: ImageCache) async -> ImageCacheError? {
        await withCheckedContinuation { continuation in
            cache.store(nil, data: data, forKey: key, cacheType: .disk) { continuation.resume(returning: $0) }
        }
    }

    @Test func queuedDiskWritesCountAsBacklogUntilWritten() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let release = holdQueue(of: fixture.cache)
        var released = false
        defer { if !released { release.signal() } }
        fixture.cache.store(nil, data: Data(count: 1000), forKey: "a", cacheType: .disk) { _ in }
        #expect(fixture.cache.diskBacklogBytes == 1000)
        release.signal()
        released = true
        #expect(await store(Data(count: 10), forKey: "b", in: fixture.cache) == nil)
        #expect(fixture.cache.diskBacklogBytes == 0)
    }

    @Test func aLoadWaitsForItsOwnDiskWriteWhileTheBacklogIsOverTheBound() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("photo.png")
        fixture.loader.serve(url, width: 8, height: 6)
        let release = holdQueue(of: fixture.cache)
        var released = false
        defer { if !released { release.signal() } }
        fixture.cache.store(nil, data: Data(count: ImageManager.maximumDiskBacklogBytes + 1), forKey: "large", cacheType: .disk) { _ in }

        let large = ImageManager.maximumDiskBacklogBytes + 1
        let load = Task { try await fixture.manager.loadData(from: url, options: [.fromLoaderOnly]) }
        // The load has queued its write (behind or waited for) when the backlog grows past the large store.
        try await eventually { fixture.cache.diskBacklogBytes > large }
        release.signal()
        released = true
        _ = try await load.value
        // Waited for: on disk the moment the load returns (a write behind would still be queued after the large one).
        #expect(fixture.cache.diskCache.storage.contains(fixture.manager.cacheKey(for: url)))
    }

    @Test func belowTheBoundALoadDoesNotWaitForTheDisk() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("photo.png")
        fixture.loader.serve(url, width: 8, height: 6)
        let release = holdQueue(of: fixture.cache)
        defer { release.signal() }
        // The queue is held (and the load skips the disk lookup): a load that waited for its write would not
        // return until the release.
        _ = try await fixture.manager.loadData(from: url, options: [.fromLoaderOnly])
        #expect(fixture.cache.diskBacklogBytes > 0)
    }
}
