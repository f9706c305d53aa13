import Foundation
import Glibc
import Testing
import WebImageKit
import WebImageTestSupport

/// A process killed with SIGKILL in the middle of many stores leaves only complete entries.
///
/// The child is a `fork()` of the test process that runs ``DiskStorage/store(_:forKey:extendedData:)`` in a
/// tight loop until it is killed. Every code path it uses is exercised in the parent first, so the child
/// needs no first-time runtime work (no lock another thread of the parent might have held at fork time).
/// The parent waits for the child with `Task.sleep`, never blocking a cooperative thread, and the tests run
/// one at a time: each keeps a core busy with its child.
@Suite(.serialized) struct DiskCacheCrashTests {
    static let rounds = 6
    static let entriesPerRound = 8

    @Test func sigkillDuringManyStoresLeavesOnlyCompleteEntries() async throws {
        let root = try TemporaryDirectory("crash")
        defer { root.remove() }
        let directory = root.url.appendingPathComponent("n")
        let storages = [true, false].map { synchronizes in
            DiskStorage(directory: directory, configuration: DiskCacheConfiguration(
                maxAge: nil, maxSize: 0, synchronizesWrites: synchronizes))
        }
        let storage = storages[0]
        for storage in storages { Self.storeLoop(storage, round: -1, limit: 3) }   // warm-up in the parent
        var completedRounds = 0
        var attempts = 0
        while completedRounds < Self.rounds, attempts < Self.rounds * 3 {
            attempts += 1
            // Without fsync the child spends most of its time inside write(), where a kill leaves a short file.
            if try await Self.killChildDuringStores(storages[completedRounds % 2], round: attempts, directory: directory) {
                completedRounds += 1
            }
        }
        try #require(completedRounds == Self.rounds, "forked children kept stalling")
        try Self.expectOnlyCompleteEntries(in: directory, storage: storage)
    }

    /// The same with group commit (issue 33): the child stores batches of four with one `syncfs` each
    /// (``DiskStorage/store(_:)``); a kill between the flush and the renames leaves only hidden files.
    @Test func sigkillDuringBatchedStoresLeavesOnlyCompleteEntries() async throws {
        let root = try TemporaryDirectory("crash-batches")
        defer { root.remove() }
        let directory = root.url.appendingPathComponent("n")
        let storage = DiskStorage(directory: directory, configuration: DiskCacheConfiguration(
            maxAge: nil, maxSize: 0, synchronizesWrites: true))
        Self.batchLoop(storage, round: -1, limit: 4)   // warm-up in the parent
        var completedRounds = 0
        var attempts = 0
        while completedRounds < Self.rounds, attempts < Self.rounds * 3 {
            attempts += 1
            if try await Self.killChildDuringStores(storage, round: attempts, directory: directory, loop: Self.batchLoop) {
                completedRounds += 1
            }
        }
        try #require(completedRounds == Self.rounds, "forked children kept stalling")
        try Self.expectOnlyCompleteEntries(in: directory, storage: storage)
    }

    /// Stores entries `r<round>-<index>` four at a time, with one flush per four, until `limit`.
    static func batchLoop(_ storage: DiskStorage, round: Int, limit: Int) {
        var index = 0
        while index < limit {
            let writes = (index..<index + 4).map { index in
                let key = "r\(round)-\(index).png"
                return DiskStorage.Write(data: EntryPayload.make(key: key, size: size(of: key)), key: key, extendedData: Data(key.utf8))
            }
            _ = storage.store(writes)
            index += 4
        }
    }

    /// Every entry in `directory` is the complete payload of the key it is named after, with its extended data;
    /// a clean removes the hidden temporary files, and the cache's count and size agree with the directory.
    static func expectOnlyCompleteEntries(in directory: URL, storage: DiskStorage) throws {
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
        let files = FileManager.default.contentsOfDirectoryOrEmpty(directory.path)
        #expect(!files.contains { $0.hasPrefix(".tmp-") })
        // The cache's own accounting agrees with the directory (entries and any side files of extended data).
        #expect(try storage.count() == names.count)
        let allocated = files.reduce(0) { $0 + FileDates.allocated(directory.appendingPathComponent($1).path) }
        #expect(try storage.totalSize() == allocated)
    }

    /// Forks a child storing entries until at least ``entriesPerRound`` new ones exist, then SIGKILLs it
    /// wherever it is. Returns `false` when the child stalls (a child forked from a multithreaded process can
    /// block on a lock another thread held at fork time, seen under ThreadSanitizer); the caller retries.
    static func killChildDuringStores(
        _ storage: DiskStorage, round: Int, directory: URL, entries: Int = entriesPerRound,
        loop: (DiskStorage, Int, Int) -> Void = storeLoop
    ) async throws -> Bool {
        let before = entryNames(directory).count
        let child = fork()
        if child == 0 {
            loop(storage, round, .max)
            _exit(0)
        }
        guard child > 0 else { return false }
        defer {   // SIGKILL wherever the child is, then reap it
            _ = kill(child, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(child, &status, 0)
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while entryNames(directory).count < before + entries, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))   // polling the directory for the child's progress, with a deadline
        }
        return entryNames(directory).count >= before + entries
    }

    /// Stores entries `r<round>-<index>` until `limit`; in the child it never returns (the parent kills it).
    static func storeLoop(_ storage: DiskStorage, round: Int, limit: Int) {
        var index = 0
        while index < limit {
            let key = "r\(round)-\(index).png"
            try? storage.store(EntryPayload.make(key: key, size: size(of: key)), forKey: key, extendedData: Data(key.utf8))
            index += 1
        }
    }

    /// Thousands of small PNG entries, the child killed five times at random moments: every entry left decodes
    /// to the image stored under its key, and the cache's count and size agree with the directory (issue 8 item 4).
    @Test func sigkillDuringThousandsOfImageStoresLeavesOnlyEntriesThatDecode() async throws {
        let root = try TemporaryDirectory("crash-images")
        defer { root.remove() }
        let directory = root.url.appendingPathComponent("images")
        let storage = DiskStorage(directory: directory, configuration: DiskCacheConfiguration(
            maxAge: nil, maxSize: 0, synchronizesWrites: false))
        Self.imageLoop(storage, round: -1, limit: 3)   // warm-up in the parent
        var rounds = 0
        var attempts = 0
        while rounds < 5, attempts < 15 {
            attempts += 1
            let entries = Int.random(in: 300...900)   // a random moment: after this many new entries
            if try await Self.killChildDuringStores(storage, round: attempts, directory: directory, entries: entries, loop: Self.imageLoop) {
                rounds += 1
            }
        }
        try #require(rounds == 5, "forked children kept stalling")
        let names = Self.entryNames(directory)
        #expect(names.count >= 1_500)
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let image = try ImageCodersManager.shared.decode(data)
            // The key is in the pixels: the image decodes to exactly what was stored under the key named by the file.
            let key = Self.imageKey(red: image.pixels[0, 0].red, green: image.pixels[0, 0].green, blue: image.pixels[0, 0].blue)
            #expect(DiskStorage.fileName(forKey: key) == name)
        }
        _ = try storage.clean()
        #expect(try storage.count() == names.count)
        let allocated = FileManager.default.contentsOfDirectoryOrEmpty(directory.path)
            .reduce(0) { $0 + FileDates.allocated(directory.appendingPathComponent($1).path) }
        #expect(try storage.totalSize() == allocated)
    }

    /// Stores 16×16 PNGs whose colour encodes their key, until `limit`.
    static func imageLoop(_ storage: DiskStorage, round: Int, limit: Int) {
        var index = 0
        while index < limit {
            let value = (round + 1) * 100_000 + index   // round -1 gives keys 0, 1, 2
            let (red, green, blue) = (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
            let image = Image(pixels: PixelBuffer(width: 16, height: 16, fill: RGBA(red: red, green: green, blue: blue)))
            if let png = try? PNGCoder().encode(image, as: .png, options: ImageEncodingOptions()) {  // no registry lock in a forked child
                try? storage.store(png, forKey: imageKey(red: red, green: green, blue: blue))
            }
            index += 1
        }
    }

    static func imageKey(red: UInt8, green: UInt8, blue: UInt8) -> String {
        "https://example.com/crash/\((Int(red) << 16) | (Int(green) << 8) | Int(blue)).png"
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
