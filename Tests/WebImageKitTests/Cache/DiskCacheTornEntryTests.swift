import Foundation
import Glibc
import Testing
@testable import WebImageKit
import WebImageTestSupport

/// Entries are not flushed before their rename by default; the length recorded with each makes one that a power
/// loss tore (ext4 and XFS bring it back shorter) a miss, never half an image.
@Suite struct DiskCacheTornEntryTests {
    static let bytes = Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    @Test func aStoreRecordsTheEntrysLengthInsteadOfFlushingIt() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url)
        try storage.store(Self.bytes, forKey: "k", extendedData: Data("v".utf8))
        #expect(storage.synchronizationCount == 0)
        #expect(ExtendedAttribute.length(atPath: storage.fileURL(forKey: "k").path) == Self.bytes.count)
        #expect(storage.entry(forKey: "k")?.data == Self.bytes)
    }

    @Test func anEntryShorterThanItsRecordedLengthIsAMissUntilStoredAgain() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = DiskCache(namespace: "n", root: root.url)
        try await cache.store(Self.bytes, forKey: "k", extendedData: Data("v".utf8))
        let path = cache.fileURL(forKey: "k").path
        #expect(truncate(path, off_t(Self.bytes.count / 2)) == 0)   // what a power loss leaves

        #expect(await cache.entry(forKey: "k") == nil)
        #expect(cache.storage.data(forKey: "k") == nil)
        #expect(await cache.metadata(forKey: "k") == nil)
        try await cache.store(Self.bytes, forKey: "k")
        #expect(await cache.entry(forKey: "k")?.data == Self.bytes)
    }

    @Test func aTornEntryIsAMissWhetherEmptiedCutOrMappedAndIsNotCounted() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url, configuration: DiskCacheConfiguration(memoryMappingThreshold: 1))
        for (key, size) in [("emptied", 0), ("cut", 100)] {
            try storage.store(Self.bytes, forKey: key)
            #expect(storage.contains(key))
            #expect(truncate(storage.fileURL(forKey: key).path, off_t(size)) == 0)
            #expect(storage.data(forKey: key) == nil)   // the cut one would be mapped: 100 bytes ≥ the threshold
            #expect(!storage.contains(key))
        }
    }

    @Test func anEntryLongerThanItsRecordedLengthIsAMiss() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url)
        try storage.store(Self.bytes, forKey: "k")
        let file = try FileHandle(forWritingTo: storage.fileURL(forKey: "k"))
        try file.seekToEnd()
        try file.write(contentsOf: Data([0, 0, 0]))
        try file.close()
        #expect(storage.entry(forKey: "k") == nil)
    }

    @Test func aTornEntryInAReadOnlyDirectoryIsAMiss() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let shipped = DiskStorage(namespace: "shipped", root: root.url)
        try shipped.store(Self.bytes, forKey: "k")
        #expect(truncate(shipped.fileURL(forKey: "k").path, 10) == 0)
        let storage = DiskStorage(namespace: "n", root: root.url, configuration: DiskCacheConfiguration(readOnlyDirectories: [shipped.directory]))
        #expect(storage.data(forKey: "k") == nil)
        #expect(storage.entry(forKey: "k") == nil)
    }

    @Test func anEntryWithoutARecordedLengthIsReadAsItIs() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url, configuration: DiskCacheConfiguration(synchronizesWrites: true))
        try storage.store(Self.bytes, forKey: "flushed")
        #expect(storage.synchronizationCount == 1)
        #expect(ExtendedAttribute.length(atPath: storage.fileURL(forKey: "flushed").path) == nil)
        #expect(storage.data(forKey: "flushed") == Self.bytes)
        // A file another program (or an earlier version) put there.
        try Data([1, 2, 3]).write(to: storage.fileURL(forKey: "copied"))
        #expect(storage.data(forKey: "copied") == Data([1, 2, 3]))
    }
}
