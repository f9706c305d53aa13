import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

/// Hidden: the downloader measurement `scripts/bench-download.sh` runs (build with `-c release`).
struct BenchDownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-download",
        abstract: "Download every URL of a file (one per line) at once; print JSON.",
        shouldDisplay: false
    )

    @Option(help: "A file with one URL per line.")
    var urlFile: String

    @Option(help: "Transfers at once (the downloader's maximumConcurrentDownloads).")
    var concurrency = 6

    func run() async throws {
        let text = try String(contentsOfFile: urlFile, encoding: .utf8)
        let urls = text.split(whereSeparator: \.isNewline).compactMap { URL(string: String($0)) }
        let results = try await DownloadBenchmark.run(urls: urls, concurrency: concurrency)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(results), as: UTF8.self))
        if results.failed > 0 { throw ExitCode.failure }
    }
}
