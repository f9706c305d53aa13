import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

@Suite struct DiskCacheTests {
    @Test func fileNameIsTheLowercaseHexMD5PlusTheKeysExtension_DC01_K05() {
        #expect(DiskStorage.fileName(forKey: "abc") == "900150983cd24fb0d6963f7d28e17f72")
        #expect(DiskStorage.fileName(forKey: "https://example.com/a/b.png?x=1") == "967889a3806aff78c7ec8940eca6fdf8.png")
        #expect(DiskStorage.fileName(forKey: "photos/cat.JPG").hasSuffix(".JPG"))
        #expect(DiskStorage.fileName(forKey: "key with space.webp").hasSuffix(".webp"))
    }

    @Test func onlyShortAlphanumericExtensionsAreKept_K05() {
        for key in ["a.verylongextension", "a.p/ng", "a.<x>", ".hidden", "a.", "noext"] {
            let name = DiskStorage.fileName(forKey: key)
            #expect(name.count == 32, "\(key) → \(name)")
        }
    }

    @Test func noKeyCanWriteOutsideTheDirectory() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "ns", root: root.url)
        for key in ["../../escape.png", "/etc/passwd", "a/../../b", "..", "%2e%2e/x.jpg", "a\u{0}b"] {
            try storage.store(Data(key.utf8), forKey: key)
            #expect(storage.data(forKey: key) == Data(key.utf8))
        }
        #expect(root.names() == ["ns"])
        #expect(root.names(in: "ns").count == 6)
        #expect(DiskStorage.directoryName(forNamespace: "../x") == "___x")
        #expect(DiskStorage.directoryName(forNamespace: "") == "default")
    }

    @Test func defaultRootFollowsXDGThenHome() {
        #expect(DiskStorage.defaultRoot(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]).path == "/c/webimagekit")
        #expect(DiskStorage.defaultRoot(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"]).path == "/h/.cache/webimagekit")
        let storage = DiskStorage(namespace: "avatars", root: URL(fileURLWithPath: "/r"))
        #expect(storage.directory.path == "/r/avatars")
    }

    @Test func storedBytesAndExtendedDataReadBack() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "default", root: root.url)
        let key = "https://example.com/p.png"
        #expect(storage.data(forKey: key) == nil && !storage.contains(key))
        try storage.store(Data([1, 2, 3]), forKey: key, extendedData: Data("etag".utf8))
        #expect(storage.contains(key))
        let entry = try #require(storage.entry(forKey: key))
        #expect(entry.data == Data([1, 2, 3]) && entry.extendedData == Data("etag".utf8))
        #expect(entry.url == storage.fileURL(forKey: key))
        #expect(root.names(in: "default") == [DiskStorage.fileName(forKey: key)])  // an xattr, no sidecar
        try storage.store(Data([4]), forKey: key)
        #expect(storage.entry(forKey: key)?.extendedData == nil)
        try storage.setExtendedData(Data("v2".utf8), forKey: key)
        #expect(storage.metadata(forKey: key)?.extendedData == Data("v2".utf8))
        try storage.setExtendedData(nil, forKey: key)
        #expect(storage.metadata(forKey: key)?.extendedData == nil)
        #expect(throws: DiskCacheError.self) { try storage.setExtendedData(Data(), forKey: "missing") }
    }

    @Test func extendedDataFallsBackToASidecarFile() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let sidecar = DiskStorage(
            namespace: "s", root: root.url, configuration: DiskCacheConfiguration(extendedDataStorage: .sidecarFile))
        try sidecar.store(Data([9]), forKey: "k.gif", extendedData: Data("meta".utf8))
        let name = DiskStorage.fileName(forKey: "k.gif")
        #expect(root.names(in: "s") == [".\(name).ext", name])
        #expect(sidecar.entry(forKey: "k.gif")?.extendedData == Data("meta".utf8))
        #expect(try sidecar.count() == 1)
        try sidecar.store(Data([8]), forKey: "k.gif")
        #expect(root.names(in: "s") == [name])          // a stale sidecar is removed with the new bytes

        // Too large for an ext4/tmpfs extended attribute: the automatic mode falls back by itself.
        let automatic = DiskStorage(namespace: "a", root: root.url)
        let large = Data(repeating: 7, count: 200_000)
        try automatic.store(Data([1]), forKey: "big", extendedData: large)
        #expect(automatic.metadata(forKey: "big")?.extendedData == large)
        try automatic.remove(forKey: "big")
        #expect(root.names(in: "a").isEmpty)
    }

    @Test func lookupFallsBackToTheNameWithoutExtension_DC02_IC25() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "default", root: root.url)
        let key = "https://example.com/legacy.jpg"
        try FileManager.default.createDirectory(at: storage.directory, withIntermediateDirectories: true)
        let legacy = storage.directory.appendingPathComponent(String(DiskStorage.fileName(forKey: key).prefix(32)))
        try Data("old".utf8).write(to: legacy)
        #expect(storage.data(forKey: key) == Data("old".utf8) && storage.contains(key))
        try storage.store(Data("new".utf8), forKey: key)
        #expect(storage.data(forKey: key) == Data("new".utf8))   // the name with extension wins
        try storage.remove(forKey: key)
        #expect(storage.data(forKey: key) == nil)                // both forms removed
    }

    @Test func readOnlyDirectoriesAreSearchedAfterTheMainOneAndNeverWritten_IC12_DC03() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let bundled = root.url.appendingPathComponent("bundled")
        try FileManager.default.createDirectory(at: bundled, withIntermediateDirectories: true)
        let key = "https://example.com/logo.png"
        try Data("bundled".utf8).write(to: bundled.appendingPathComponent(DiskStorage.fileName(forKey: key)))
        let configuration = DiskCacheConfiguration(maxAge: .zero, readOnlyDirectories: [bundled])
        let storage = DiskStorage(namespace: "main", root: root.url, configuration: configuration)
        #expect(storage.data(forKey: key) == Data("bundled".utf8) && storage.contains(key))
        try storage.store(Data("fresh".utf8), forKey: key)
        #expect(storage.data(forKey: key) == Data("fresh".utf8))
        try storage.remove(forKey: key)
        try storage.clean()
        try storage.clear()
        #expect(storage.data(forKey: key) == Data("bundled".utf8))
        #expect(root.names(in: "bundled") == [DiskStorage.fileName(forKey: key)])
    }

    @Test func readingRefreshesTheAccessDateWhenExpiryIsByAccess() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let configuration = DiskCacheConfiguration(maxAge: .seconds(3600), expirationDate: .accessDate)
        let storage = DiskStorage(namespace: "n", root: root.url, configuration: configuration)
        try storage.store(Data([1]), forKey: "read")
        try storage.store(Data([2]), forKey: "unread")
        let old = Date().addingTimeInterval(-7200)
        for key in ["read", "unread"] { FileDates.set(storage.fileURL(forKey: key).path, access: old) }
        #expect(storage.data(forKey: "read") == Data([1]))
        #expect(FileDates.access(storage.fileURL(forKey: "read").path) > Date().addingTimeInterval(-60))
        let result = try storage.clean()
        #expect(result.expiredCount == 1 && storage.contains("read") && !storage.contains("unread"))
    }
}

/// SPEC CF-05: the seeds' disk reading options; here large entries can be memory-mapped.
@Suite struct DiskCacheMappingTests {
    /// The lines of this process's memory map that name `path` (read to the end: a procfs file reports no size,
    /// and `String(contentsOfFile:)` stops after the first page of it).
    private func mappings(of path: String) throws -> [Substring] {
        let maps = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? maps.close() }
        let text = String(decoding: try maps.readToEnd() ?? Data(), as: UTF8.self)
        #expect(text.contains("[stack]"), "the whole map was read")
        return text.split(separator: "\n").filter { $0.hasSuffix(path) }
    }

    @Test func cf05EntriesFromTheThresholdUpAreMemoryMappedAndReadTheSame() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "ns", root: root.url, configuration: DiskCacheConfiguration(memoryMappingThreshold: 64 << 10))
        let large = Data((0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let small = Data(repeating: 7, count: 1000)
        try storage.store(large, forKey: "large")
        try storage.store(small, forKey: "small")
        let largePath = storage.fileURL(forKey: "large").path
        do {
            let entry = try #require(storage.entry(forKey: "large"))
            #expect(entry.data == large)
            let mapped = try mappings(of: largePath)
            #expect(!mapped.isEmpty, "a large entry is mapped while its bytes are alive")
            withExtendedLifetime(entry) {}
        }
        let unmapped = try mappings(of: largePath)
        #expect(unmapped.isEmpty, "the mapping goes with the bytes")
        let smallData = try #require(storage.data(forKey: "small"))
        #expect(smallData == small)
        let smallMappings = try mappings(of: storage.fileURL(forKey: "small").path)
        #expect(smallMappings.isEmpty, "a small entry is read, not mapped")
    }

    @Test func cf05ByDefaultNothingIsMapped() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let storage = DiskStorage(namespace: "ns", root: root.url)
        #expect(storage.configuration.memoryMappingThreshold == nil)
        try storage.store(Data(repeating: 1, count: 1 << 20), forKey: "k")
        let data = try #require(storage.data(forKey: "k"))
        #expect(data.count == 1 << 20)
        let mapped = try mappings(of: storage.fileURL(forKey: "k").path)
        #expect(mapped.isEmpty)
    }
}
