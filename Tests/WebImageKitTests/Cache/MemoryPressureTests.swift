import Foundation
import Glibc
import Testing
@testable import WebImageKit
import WebImageTestSupport

/// The memory cache's default limit in a container, trimming under memory pressure and the PSI watcher
/// (SPEC MC-01, IC-31; issue 18).
@Suite struct MemoryPressureTests {
    static let mebibyte: UInt64 = 1 << 20

    @Test func aCgroupMemoryFileNamesBytesOrMaxForNoLimit() {
        #expect(ContainerMemory.limit(fromCgroupFile: "536870912\n") == 512 * Self.mebibyte)
        #expect(ContainerMemory.limit(fromCgroupFile: "max\n") == nil)
        #expect(ContainerMemory.limit(fromCgroupFile: "") == nil)
        #expect(ContainerMemory.limit(fromCgroupFile: "12 MB") == nil)
        #expect(ContainerMemory.limit(fromCgroupFile: "0") == nil)
    }

    @Test func theFirstCgroupFileThatExistsDecides() {
        func limit(_ files: [String: String]) -> UInt64? { ContainerMemory.readLimit { files[$0] } }
        // A container with its own cgroup namespace: the namespace root's memory.max.
        #expect(limit(["/sys/fs/cgroup/memory.max": "1073741824\n"]) == 1024 * Self.mebibyte)
        #expect(limit(["/sys/fs/cgroup/memory.max": "max\n",
                       "/sys/fs/cgroup/memory/memory.limit_in_bytes": "1048576"]) == nil)
        // Without a namespace: the process's own cgroup from /proc/self/cgroup.
        #expect(limit(["/proc/self/cgroup": "0::/kubepods/pod7/app\n",
                       "/sys/fs/cgroup/kubepods/pod7/app/memory.max": "268435456\n"]) == 256 * Self.mebibyte)
        // cgroup v1 (its "no limit" is a huge number, which the default's minimum ignores).
        #expect(limit(["/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"]) == 9_223_372_036_854_771_712)
        #expect(limit([:]) == nil)
    }

    @Test func theDefaultCostLimitIsAFifthOfTheContainersLimitWhenItIsLower() {
        let physical = 64 * 1024 * Self.mebibyte
        #expect(ContainerMemory.defaultCostLimit(physicalMemory: physical, containerLimit: 500 * Self.mebibyte) == 100 << 20)
        #expect(ContainerMemory.defaultCostLimit(physicalMemory: physical, containerLimit: nil) == 256 << 20)
        #expect(ContainerMemory.defaultCostLimit(physicalMemory: 1000 * Self.mebibyte, containerLimit: .max) == 200 << 20)
        #expect(ContainerMemory.defaultCostLimit(physicalMemory: physical, containerLimit: 8 * 1024 * Self.mebibyte) == 256 << 20)
        #expect(MemoryCacheConfiguration.defaultTotalCostLimit == ContainerMemory.defaultCostLimit(
            physicalMemory: ProcessInfo.processInfo.physicalMemory, containerLimit: ContainerMemory.limit))
    }

    static func storeUnreferencedImage(_ cache: ImageCache, forKey key: String) async throws {
        try await cache.store(Image(pixels: PixelBuffer(width: 4, height: 4, fill: RGBA(red: 1, green: 2, blue: 3))), forKey: key)
    }

    @Test func trimMemoryEmptiesTheMemoryCacheButKeepsImagesInUseAndTheDisk() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = ImageCache(namespace: "trim", root: root.url)
        let inUse = Image(pixels: PixelBuffer(width: 8, height: 8, fill: RGBA(red: 9, green: 9, blue: 9)))
        try await cache.store(inUse, forKey: "in-use")
        try await Self.storeUnreferencedImage(cache, forKey: "unused")
        #expect(cache.memoryCache.count == 2)
        cache.trimMemory()
        #expect(cache.memoryCache.totalCost == 0)
        #expect(cache.imageFromMemory(forKey: "unused") == nil)
        #expect(cache.imageFromMemory(forKey: "in-use") === inUse)  // through the weak table: it costs nothing to keep
        #expect(await cache.contains("unused", cacheType: .disk) == .disk)
    }

    @Test func theTriggerIsTheStallAndTheWindowInMicroseconds() {
        #expect(MemoryPressureWatcher.trigger(stall: .milliseconds(150), window: .seconds(1)) == "some 150000 1000000")
        #expect(MemoryPressureWatcher.trigger(stall: .microseconds(500), window: .seconds(2)) == "some 500 2000000")
    }

    @Test func whereTheFileIsMissingTheWatcherSaysSoAndDoesNothing() async throws {
        let log = LogRecorder()
        let watcher = MemoryPressureWatcher(path: "/nonexistent/pressure/memory", trigger: "some 150000 2000000",
                                            logger: log.logger) { Issue.record("no pressure can be reported") }
        #expect(watcher == nil)
        var messages = log.messages.makeAsyncIterator()
        let message = await messages.next()
        #expect(message?.hasPrefix("memory pressure notifications are not available") == true)
    }

    @Test func theWatcherWritesItsTriggerWithTheClosingNulAndStops() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let file = root.url.appendingPathComponent("memory")
        try Data().write(to: file)
        let log = LogRecorder()
        let watcher = try #require(MemoryPressureWatcher(path: file.path, trigger: "some 150000 2000000", logger: log.logger) {})
        #expect(try Data(contentsOf: file) == Data("some 150000 2000000\0".utf8))
        watcher.stop()
        watcher.stop()  // a second stop does nothing
    }

    @Test func eachPriorityEventCallsTheHandlerAndStopEndsThePollingThread() async throws {
        var pair: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        let events = LockedValue(0)
        let watched = pair[0]
        let poller = try #require(PressurePoller(descriptor: watched, logger: LogRecorder().logger) {
            var byte: UInt8 = 0
            _ = recv(watched, &byte, 1, Int32(MSG_OOB))  // consume the event, as the kernel resets a PSI event
            events.withLock { $0 += 1 }
        })
        var byte: UInt8 = 33
        try #require(send(pair[1], &byte, 1, Int32(MSG_OOB)) == 1, "out-of-band data stands for a PSI event (POLLPRI)")
        try await eventually { events.withLock { $0 } >= 1 }
        poller.stop()
        // The thread closes its end when it ends: the peer sees the end of the stream.
        var peer = pollfd(fd: pair[1], events: Int16(POLLIN), revents: 0)
        #expect(poll(&peer, 1, 10_000) == 1)
        #expect(recv(pair[1], &byte, 1, 0) == 0)
    }
}
