import Foundation
import Glibc
import Testing
import WebImageKit

/// A process killed with SIGKILL in the middle of many stores leaves only complete entries.
///
/// The child is a `fork()` of the test process that runs ``DiskStorage/store(_:forKey:extendedData:)`` in a
/// tight loop until it is killed. Every code path it uses is exercised in the parent first, so the child
/// needs no first-time runtime work (no lock another thread of the parent might have held at fork time).
@Suite struct DiskCacheCrashTests {
    static let rounds = 6
    static let entriesPerRound = 8

    @Test func sigkillDuringManyStoresLeavesOnlyCompleteEntries() throws {
        let root = try TemporaryDirectory("crash")
        defer { root.remove() }
        let directory = root.url.appendingPathComponent("n")
        let storages = [true, false].map { synchronizes in
            DiskStorage(directory: directory, configuration: DiskCacheConfiguration(
                maxAge: nil, maxSize: 0, synchronizesWrites: synchronizes))
        }
        let storage = storages[0]
        for storage in storages { Self.storeLoop(storage, round: -1, limit: 3) }   // warm-up in the parent
        for round in 0..<Self.rounds {
            // Without fsync the child spends most of its time inside write(), where a kill leaves a short file.
            let storage = storages[round % 2]
            let before = Self.entryNames(directory).count
            let child = fork()
            if child == 0 { Self.storeLoop(storage, round: round, limit: .max) }
            try #require(child > 0)
            defer {   // SIGKILL wherever the child is, then reap it
                _ = kill(child, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(child, &status, 0)
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while Self.entryNames(directory).count < before + Self.entriesPerRound, ContinuousClock.now < deadline {
                _ = usleep(2_000)   // polling the directory for the child's progress, with a deadline
            }
            try #require(Self.entryNames(directory).count >= before + Self.entriesPerRound, "the child made no progress")
        }
        let names = Self.entryNames(directory)
        #expect(names.count >= Self.rounds * Self.entriesPerRound)
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let key = String(decoding: data.prefix { $0 != UInt8(ascii: "|") }, as: UTF8.self)
            #expect(DiskStorage.fileName(forKey: key) == name, "\(name) holds another key")
            guard key.utf8.count < 100 else { continue }
            let entry = try #require(storage.entry(forKey: key))
            let complete = entry.data == EntryPayload.make(key: key, size: Self.size(of: key))  // no diff of megabytes
            #expect(complete, "\(name) (\(entry.data.count) bytes) is not the complete entry for \(key.prefix(40))")
            #expect(entry.extendedData == Data(key.utf8))
        }
        // Interrupted stores leave hidden temporary files only; a clean removes them.
        let result = try storage.clean()
        #expect(result.remainingCount == names.count)
        #expect(!FileManager.default.contentsOfDirectoryOrEmpty(directory.path).contains { $0.hasPrefix(".tmp-") })
    }

    /// Stores entries `r<round>-<index>` until `limit`; in the child it never returns (the parent kills it).
    static func storeLoop(_ storage: DiskStorage, round: Int, limit: Int) {
        var index = 0
        while index < limit {
            let key = "r\(round)-\(index).png"
            try? storage.store(EntryPayload.make(key: key, size: size(of: key)), forKey: key, extendedData: Data(key.utf8))
            index += 1
        }
        if limit == .max { _exit(0) }
    }

    /// Entry sizes from 256 KiB to about 4 MiB, so kills land inside writes as well as between them.
    static func size(of key: String) -> Int {
        262_144 + (key.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xF) * 262_144
    }

    static func entryNames(_ directory: URL) -> [String] {
        FileManager.default.contentsOfDirectoryOrEmpty(directory.path).filter { !$0.hasPrefix(".") }
    }
}

extension FileManager {
    func contentsOfDirectoryOrEmpty(_ path: String) -> [String] {
        (try? contentsOfDirectory(atPath: path)) ?? []
    }
}
