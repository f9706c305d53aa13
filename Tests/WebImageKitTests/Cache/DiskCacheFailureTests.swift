import Foundation
import Glibc
import Testing
import WebImageKit
import WebImageTestSupport

/// The failure behaviours of issue 4: each leaves the cache consistent.
@Suite struct DiskCacheFailureTests {
    @Test func anEntryThatCannotBeReadIsAMissAndACorruptOneCanBeRemoved() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url)
        try storage.store(Data([1]), forKey: "ok")
        try FileManager.default.createDirectory(at: storage.fileURL(forKey: "dir.png"), withIntermediateDirectories: true)
        #expect(storage.data(forKey: "dir.png") == nil && storage.entry(forKey: "dir.png") == nil)
        #expect(!storage.contains("dir.png"))
        try Data("not an image".utf8).write(to: storage.fileURL(forKey: "junk.jpg"))
        #expect(storage.data(forKey: "junk.jpg") != nil)     // bytes are bytes; the image cache decides
        try storage.remove(forKey: "junk.jpg")
        #expect(storage.data(forKey: "junk.jpg") == nil && storage.data(forKey: "ok") == Data([1]))
    }

    @Test func theDirectoryDeletedWhileRunningIsRecreatedOnTheNextStore() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = DiskCache(namespace: "deep/er", root: root.url.appendingPathComponent("missing"))
        try await cache.store(Data([1]), forKey: "a")
        try FileManager.default.removeItem(at: root.url.appendingPathComponent("missing"))
        #expect(await cache.entry(forKey: "a")?.data == nil)
        #expect(try await cache.count() == 0)
        try await cache.store(Data([2]), forKey: "b")
        #expect(await cache.entry(forKey: "b")?.data == Data([2]))
    }

    @Test func aFailingWriteReportsAnErrorLeavesNothingAndMemoryStillWorks() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let blocker = root.url.appendingPathComponent("file")
        try Data("plain file".utf8).write(to: blocker)
        let storage = DiskStorage(namespace: "n", root: blocker)     // a directory under a regular file: ENOTDIR
        let memory = MemoryCache<Box>(cost: { _ in 1 })
        let box = Box(1)
        memory.setValue(box, forKey: "k")
        do {
            try storage.store(Data([1]), forKey: "k")
            Issue.record("the store should fail")
        } catch {
            #expect([.writeFailed, .createDirectoryFailed].contains(error.code))
            #expect(error.posixErrorCode == ENOTDIR || error.underlying != nil)
        }
        #expect(try root.names() == ["file"] && Data(contentsOf: blocker) == Data("plain file".utf8))
        #expect(storage.data(forKey: "k") == nil && memory.value(forKey: "k") === box)
    }

    @Test func aFullDiskFailsTheStoreWithoutAPartialFileAndKeepsTheOldEntry() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let mountPoint = root.url.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint.path]) else {
            return  // not permitted here: the ENOTDIR test above covers the failing write
        }
        defer { _ = Self.run("/bin/umount", [mountPoint.path]) }
        let storage = DiskStorage(directory: mountPoint.appendingPathComponent("n"))
        try storage.store(Data(repeating: 1, count: 64 * 1024), forKey: "k")
        do {
            try storage.store(Data(repeating: 2, count: 512 * 1024), forKey: "k")
            Issue.record("the store should fail: the file system is full")
        } catch {
            #expect(error.code == .writeFailed && error.posixErrorCode == ENOSPC)
        }
        #expect(storage.data(forKey: "k") == Data(repeating: 1, count: 64 * 1024))
        #expect(try FileManager.default.contentsOfDirectory(atPath: storage.directory.path) == [DiskStorage.fileName(forKey: "k")])
    }

    @Test func twoConcurrentStoresOfOneKeyLeaveOneCompleteEntry() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let directory = root.url.appendingPathComponent("n")
        let values = [Data(repeating: 0xAA, count: 512 * 1024), Data(repeating: 0x55, count: 300 * 1024)]
        let torn = LockedFlag()
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            let storage = DiskStorage(directory: directory)   // independent storages: no shared queue
            for _ in 0..<40 {
                if worker < 2 {
                    try? storage.store(values[worker], forKey: "same.png", extendedData: Data([UInt8(worker)]))
                } else if let data = storage.data(forKey: "same.png"), !values.contains(data) {
                    torn.set()
                }
            }
        }
        let storage = DiskStorage(directory: directory)
        let entry = try #require(storage.entry(forKey: "same.png"))
        let index = try #require(values.firstIndex(of: entry.data))
        #expect(entry.extendedData == Data([UInt8(index)]))
        #expect(!torn.value)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [DiskStorage.fileName(forKey: "same.png")])
    }

    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// A flag set from several threads.
final class LockedFlag: Sendable {
    private let flag = LockedValue(false)
    func set() { flag.withLock { $0 = true } }
    var value: Bool { flag.withLock { $0 } }
}
