import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

/// Hidden: the soak run `scripts/soak.sh` drives (build with `-c release`).
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Load URLs at random with random cancellations; print counts and resident memory as JSON.",
        shouldDisplay: false
    )

    @Option(help: "A file with one URL per line.")
    var urlFile: String

    @Option(help: "Loads in all.")
    var loads = 100_000

    @Option(help: "Keep starting loads for at least this many seconds.")
    var seconds = 0.0

    @Option(help: "Loads at once.")
    var concurrency = 64

    @Option(help: "The share of loads cancelled at a random moment.")
    var cancelFraction = 0.3

    @Option(help: "The memory cache's limit in MiB.")
    var memoryLimit = 64

    @Option(help: "A scratch directory for the disk cache (removed afterwards).")
    var directory: String = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-soak").path

    func run() async throws {
        let text = try String(contentsOfFile: urlFile, encoding: .utf8)
        let urls = text.split(whereSeparator: \.isNewline).compactMap { URL(string: String($0)) }
        guard !urls.isEmpty else { throw ValidationError("no URLs in \(urlFile)") }
        let results = try await SoakRun.run(
            urls: urls, loads: loads, seconds: seconds, concurrency: concurrency, cancelFraction: cancelFraction,
            memoryLimit: memoryLimit << 20, directory: URL(fileURLWithPath: directory, isDirectory: true))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(results), as: UTF8.self))
        if results.duplicates > 0 { throw ExitCode.failure }
    }
}
