import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

@Suite struct DiskCacheCleaningTests {
    static let day: TimeInterval = 24 * 3600

    @Test func cleanRemovesEntriesOlderThanMaxAgeByModificationDate_DC06_CF07() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "n", root: root.url)   // default: one week, by modification
        #expect(storage.configuration.maxAge == .seconds(7 * 24 * 3600))
        #expect(storage.configuration.expirationDate == .modificationDate)
        for index in 0..<4 { try storage.store(Data([UInt8(index)]), forKey: "k\(index)") }
        for index in 0..<2 {
            FileDates.set(storage.fileURL(forKey: "k\(index)").path, modification: Date().addingTimeInterval(-8 * Self.day))
        }
        let result = try storage.clean()
        #expect(result.expiredCount == 2 && result.trimmedCount == 0 && result.remainingCount == 2)
        #expect(!storage.contains("k0") && !storage.contains("k1") && storage.contains("k2") && storage.contains("k3"))
    }

    @Test(arguments: [DiskCacheConfiguration.ExpirationDate.changeDate, .creationDate, .accessDate, .modificationDate])
    func everyExpirationDateExpiresEntriesAgainstTheClock_CF09(kind: DiskCacheConfiguration.ExpirationDate) throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let clock = TestDate()
        let configuration = DiskCacheConfiguration(maxAge: .seconds(3600), expirationDate: kind)
        let storage = DiskStorage(namespace: "n", root: root.url, configuration: configuration, now: { clock.now })
        try storage.store(Data([1]), forKey: "a")
        try storage.store(Data([2]), forKey: "b")
        #expect(try storage.clean().expiredCount == 0)
        clock.set(Date().addingTimeInterval(2 * 3600))
        let result = try storage.clean()
        #expect(try result.expiredCount == 2 && result.remainingCount == 0 && storage.count() == 0)
    }

    @Test func sizePassDeletesOldestFirstUntilUnderHalfTheMaximum_DC07() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let configuration = DiskCacheConfiguration(maxAge: nil, maxSize: 8 * 4096)
        let storage = DiskStorage(namespace: "n", root: root.url, configuration: configuration)
        for index in 0..<10 {
            try storage.store(Data(repeating: UInt8(index), count: 4096), forKey: "k\(index)")
            FileDates.set(storage.fileURL(forKey: "k\(index)").path,
                          modification: Date().addingTimeInterval(Double(index - 100) * 60))
        }
        let before = try storage.totalSize()
        #expect(before == 10 * FileDates.allocated(storage.fileURL(forKey: "k0").path))
        let result = try storage.clean()
        // Allocated 4096 each: 40960 > 32768, delete oldest while the total is ≥ 16384 → 3 remain.
        #expect(result.trimmedCount == 7 && result.remainingCount == 3 && result.remainingBytes == 3 * 4096)
        #expect((0..<7).allSatisfy { !storage.contains("k\($0)") })
        #expect((7..<10).allSatisfy { storage.contains("k\($0)") })
        #expect(try storage.totalSize() == 3 * 4096)
    }

    @Test func sizeAndCountAreExactAndIgnoreTemporaryAndSidecarFiles_DC11_IC30() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(
            namespace: "n", root: root.url, configuration: DiskCacheConfiguration(extendedDataStorage: .sidecarFile))
        #expect(try storage.count() == 0 && storage.totalSize() == 0)   // no directory yet
        try storage.store(Data(repeating: 1, count: 10_000), forKey: "a.png", extendedData: Data("x".utf8))
        try storage.store(Data(repeating: 2, count: 100), forKey: "b")
        let directory = storage.directory.path
        try Data("partial".utf8).write(to: storage.directory.appendingPathComponent(".tmp-crashed"))
        try Data("orphan".utf8).write(to: storage.directory.appendingPathComponent(".0123.ext"))
        try FileManager.default.createDirectory(atPath: directory + "/subdir", withIntermediateDirectories: false)
        let expected = root.names(in: "n").filter { !$0.hasPrefix(".tmp") && $0 != ".0123.ext" && $0 != "subdir" }
            .reduce(0) { $0 + FileDates.allocated(directory + "/" + $1) }
        #expect(try storage.count() == 2)
        #expect(try storage.totalSize() == expected)
        let result = try storage.clean()
        #expect(result.leftoverFilesRemoved == 2 && result.remainingCount == 2 && result.remainingBytes == expected)
        #expect(!root.names(in: "n").contains(".tmp-crashed"))
    }

    @Test func cleanAndClearAreDifferentOperations_DC09_IC28() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = DiskCache(namespace: "n", root: root.url)
        try await cache.store(Data([1]), forKey: "a")
        try await cache.store(Data([2]), forKey: "b")
        #expect(try await cache.clean().remainingCount == 2)
        #expect(try await cache.count() == 2)
        try await cache.clear()
        #expect(try await cache.count() == 0 && FileManager.default.fileExists(atPath: cache.directory.path))
        #expect(await cache.entry(forKey: "a")?.data == nil)
    }

    @Test func asyncAndSyncFormsShareOneQueue_DC04_IC02() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let cache = DiskCache(namespace: "n", root: root.url)
        try await cache.store(Data([1]), forKey: "k", extendedData: Data([2]))
        #expect(cache.sync { $0.data(forKey: "k") } == Data([1]))
        #expect(await cache.entry(forKey: "k")?.extendedData == Data([2]))
        #expect(await cache.contains("k") && cache.sync { $0.contains("k") })
        try await cache.setExtendedData(Data([3]), forKey: "k")
        #expect(await cache.entry(forKey: "k")?.extendedData == Data([3]))
        try cache.sync { try $0.store(Data([4]), forKey: "s") }
        #expect(await cache.entry(forKey: "s")?.data == Data([4]))
        try await cache.remove(forKey: "k")
        #expect(await cache.entry(forKey: "k")?.data == nil)
        #expect(try await cache.totalSize() > 0)
    }

    /// SPEC CF-08: SDWebImage's default is 0 (unlimited); ours is 1 GiB on purpose (documented on `maxSize`),
    /// so a long-running server does not fill its disk.
    @Test func cf08TheDefaultDiskLimitIsOneGiBNotUnlimited() {
        #expect(DiskCacheConfiguration().maxSize == 1 << 30)
        #expect(ImageCache.Configuration().disk.maxSize == 1 << 30)
    }
}
