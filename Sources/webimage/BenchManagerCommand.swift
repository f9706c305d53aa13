import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

/// Hidden: the manager measurements `scripts/bench-manager.sh` runs (build with `-c release`).
struct BenchManagerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-manager",
        abstract: "Measure ImageManager memory hits and cold loads; print JSON.",
        shouldDisplay: false
    )

    @Option(help: "An image on a local server, loaded cold (with ?n=<i> added) for the end-to-end measurement.")
    var url: String

    @Option(help: "A scratch directory for the caches (removed afterwards).")
    var directory: String = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-manager").path

    @Option(help: "Cold loads.")
    var coldLoads = 50

    @Option(help: "Memory hits per measurement.")
    var hits = 1_000_000

    func run() async throws {
        guard let imageURL = URL(string: url) else { throw ValidationError("not a URL: \(url)") }
        let results = try await ManagerBenchmark.run(
            url: imageURL, directory: URL(fileURLWithPath: directory, isDirectory: true), coldLoads: coldLoads, hits: hits)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(results), as: UTF8.self))
    }
}
