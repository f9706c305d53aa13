import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

/// Hidden: the cache measurements `scripts/bench-cache.sh` runs (build with `-c release`).
struct BenchCacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-cache",
        abstract: "Measure the memory and disk caches; print JSON.",
        shouldDisplay: false
    )

    @Option(help: "A scratch directory for the disk measurements (removed afterwards).")
    var directory: String = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-cache").path

    @Option(help: "Disk entries (and memory keys).")
    var entries = 10_000

    @Option(help: "Bytes per disk entry.")
    var entryBytes = 1024

    @Option(help: "Memory operations per measurement.")
    var operations = 2_000_000

    func run() throws {
        let results = try CacheBenchmark.run(
            directory: URL(fileURLWithPath: directory, isDirectory: true),
            entries: entries, entryBytes: entryBytes, operations: operations)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(results), as: UTF8.self))
    }
}
