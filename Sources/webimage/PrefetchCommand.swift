#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import WebImageKit
import WebImageTools

/// `webimage prefetch`: warm the disk cache with a list of URLs through `ImagePrefetcher`.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Load a list of URLs (one per line) into the disk cache; print finished and skipped counts.",
        discussion: """
            Lines starting with # are comments. Each URL that fails is listed on standard error with its reason.

            Examples:
              webimage prefetch --input urls.txt
              grep -o 'https://[^"]*\\.jpg' page.html | webimage prefetch --input - --concurrency 8
            """
    )

    @Option(help: "A file with one URL per line, or - for standard input.")
    var input: String

    @OptionGroup var cache: CacheRootOptions

    @Option(help: "Loads at once (the prefetcher's default is 3).")
    var concurrency = 3

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    /// What a prefetch reports.
    struct Summary: Codable {
        var total: Int
        var finished: Int
        var skipped: Int
        var seconds: Double
    }

    func run() async throws {
        let text: String
        if input == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            do {
                text = try String(contentsOfFile: input, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read \(input): \(error.localizedDescription)")
            }
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let urls = lines.compactMap { URL(string: $0) }.filter { $0.scheme != nil }
        if urls.count < lines.count { printError("skipping \(lines.count - urls.count) lines that are not URLs") }

        let interactive = !json && isatty(STDERR_FILENO) == 1
        let clock = ContinuousClock()
        let start = clock.now
        var configuration = ImageDownloader.Configuration()
        configuration.maximumConcurrentDownloads = concurrency
        let summary = try await withImageDownloader(configuration: configuration) { downloader in
            let manager = ImageManager(
                cache: ImageCache(namespace: cache.namespace, root: cache.root),
                loader: ImageLoaderRegistry(loaders: [FileImageLoader(), DataURLImageLoader(), downloader]))
            let prefetcher = ImagePrefetcher(
                manager: manager, maxConcurrentPrefetches: concurrency, options: [.lowPriority, .waitStoreCache])
            var result = Summary(total: urls.count, finished: 0, skipped: 0, seconds: 0)
            for await update in prefetcher.updates(for: urls) {
                switch update {
                case .progress(_, let finished, let total):
                    if interactive {
                        let line = "\(FetchProgressBoard.bar(Double(finished) / Double(max(total, 1)))) \(finished)/\(total) prefetched"
                        FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
                    }
                case .completed(let finished, let skipped):
                    result.finished = finished
                    result.skipped = skipped
                }
            }
            if interactive { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
            let elapsed = clock.now - start
            result.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return result
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        } else {
            print("prefetched \(summary.total) URLs: \(summary.finished) finished, \(summary.skipped) skipped, "
                  + String(format: "%.2f s", summary.seconds))
        }
        if summary.skipped > 0 { throw ExitCode.failure }
    }
}
