import Foundation
import Testing
import WebImageKit
import WebImageTools

/// Runs `webimage cache info|clean|clear` on a cache filled through the library.
@Suite struct CacheCommandLineTests {
    static func filledCache(_ root: URL, namespace: String = "cli") async throws -> ImageCache {
        let cache = ImageCache(namespace: namespace, root: root)
        for index in 0..<3 { try await cache.store(nil, data: Data(count: 4096 + index), forKey: "key-\(index).png") }
        return cache
    }

    static func report(_ arguments: [String]) async throws -> CacheReport {
        let run = try await CommandLineToolTests.run(arguments + ["--json"])
        #expect(run.status == 0, "\(run.stderr)")
        return try JSONDecoder().decode(CacheReport.self, from: Data(run.stdout.utf8))
    }

    @Test func infoReportsTheDirectoryEntriesAndBytes() async throws {
        let root = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = try await Self.filledCache(root)
        let report = try await Self.report(["cache", "info", "--cache-dir", root.path, "--namespace", "cli"])
        #expect(report.directory == cache.diskCache.directory.path)
        #expect(report.entries == 3)
        #expect(report.bytes == (try await cache.diskCache.totalSize()))
        let text = try await CommandLineToolTests.run(["cache", "info", "--cache-dir", root.path, "--namespace", "cli"])
        #expect(text.stdout.contains("3 entries"))
    }

    @Test func cleanRemovesExpiredEntriesAndSaysWhat() async throws {
        let root = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = try await Self.filledCache(root)
        let kept = try await Self.report(["cache", "clean", "--cache-dir", root.path, "--namespace", "cli"])
        #expect(kept.removedEntries == 0 && kept.entries == 3)
        let old = Date().addingTimeInterval(-7200)
        try FileManager.default.setAttributes(
            [.modificationDate: old], ofItemAtPath: cache.diskCache.storage.fileURL(forKey: "key-0.png").path)
        let report = try await Self.report(["cache", "clean", "--cache-dir", root.path, "--namespace", "cli", "--max-age", "3600"])
        #expect(report.action == "clean" && report.expiredEntries == 1 && report.entries == 2)
        #expect(await cache.contains("key-0.png") == .notCached)
    }

    @Test func clearEmptiesTheNamespaceOnly() async throws {
        let root = try CommandLineToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try await Self.filledCache(root)
        let other = try await Self.filledCache(root, namespace: "other")
        let report = try await Self.report(["cache", "clear", "--cache-dir", root.path, "--namespace", "cli"])
        #expect(report.removedEntries == 3 && report.entries == 0)
        #expect(try await Self.report(["cache", "info", "--cache-dir", root.path, "--namespace", "cli"]).entries == 0)
        #expect(try await other.diskCache.count() == 3)
    }
}
