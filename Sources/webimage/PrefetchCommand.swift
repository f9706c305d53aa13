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

/// `webimage prefetch`: warm the disk cache with a list of URLs (``PrefetchList``): their bytes, not decoded.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Load a list of URLs (one per line) into the disk cache; print finished and skipped counts.",
        discussion: """
            Lines starting with # are comments. Each image is stored as downloaded, without decoding it; bytes \
            that do not start like an image webimage can decode fail their URL and are not kept. Each URL that \
            fails is listed on standard error with its reason.

            Examples:
              webimage prefetch --input urls.txt
              grep -o 'https://[^"]*\\.jpg' page.html | webimage prefetch --input - --concurrency 8
            """
    )

    @Option(help: "A file with one URL per line, or - for standard input.")
    var input: String

    @OptionGroup var cache: CacheRootOptions

    @Option(help: "Downloads at once (the prefetcher's default is 3); up to four times as many URLs are under way.")
    var concurrency = 3

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    /// What a prefetch reports.
    struct Summary: Codable {
        /// A URL that did not load, and why.
        struct Failure: Codable {
            var url: String
            var reason: String
        }

        var total: Int
        /// URLs done, whether they loaded or not (SDWebImage's finished count).
        var finished: Int
        /// URLs that failed.
        var skipped: Int
        /// URLs not loaded because of Ctrl-C.
        var cancelled: Int
        var seconds: Double
        var failures: [Failure]
    }

    func validate() throws {
        guard concurrency > 0 else { throw ValidationError("--concurrency must be at least 1, not \(concurrency)") }
    }

    func run() async throws {
        let name = input == "-" ? "standard input" : input
        let text: String
        do {
            text = String(decoding: try InputFile.read(input), as: UTF8.self)
        } catch {
            printError(error.description)
            throw ExitCode.failure
        }
        let (urls, invalid) = PrefetchList.parse(text)
        for line in invalid { printError("\(name) line \(line.number): not a URL: \(line.text)") }
        guard !urls.isEmpty else {
            if invalid.isEmpty { printError("\(name): no URLs in the list; write one URL per line") }
            throw ExitCode.failure
        }

        _ = try CacheFolder.prepare(root: cache.root, namespace: cache.namespace)
        let interactive = !json && isatty(STDERR_FILENO) == 1
        let start = ContinuousClock.now
        var configuration = ImageDownloader.Configuration()
        configuration.maximumConcurrentDownloads = concurrency
        let work = Task { try await withImageDownloader(configuration: configuration) { downloader in
            let manager = ImageManager(
                cache: ImageCache(namespace: cache.namespace, root: cache.root),
                loader: ImageLoaderRegistry(loaders: [FileImageLoader(), DataURLImageLoader(), downloader]))
            return await PrefetchList.load(urls, manager: manager, concurrency: concurrency) { finished in
                guard interactive else { return }
                let line = "\(FetchProgressBoard.bar(Double(finished) / Double(urls.count))) \(finished)/\(urls.count) prefetched"
                FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
            }
        } }
        let interruption = Interruption(message: nil) { work.cancel() }
        let outcome = try await work.value
        if interactive { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        let elapsed = ContinuousClock.now - start
        let summary = Summary(
            total: urls.count, finished: urls.count - outcome.cancelled, skipped: outcome.failures.count, cancelled: outcome.cancelled,
            seconds: elapsed.seconds,
            failures: outcome.failures.map { Summary.Failure(url: $0.url.absoluteString, reason: $0.reason) })
        for failure in summary.failures { printError("\(failure.url): \(failure.reason)") }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        } else {
            let cancelled = summary.cancelled > 0 ? "\(summary.cancelled) cancelled, " : ""
            print("prefetched \(summary.total) URLs: \(summary.finished - summary.skipped) loaded, \(summary.skipped) failed, "
                  + cancelled + String(format: "%.2f s", summary.seconds))
        }
        if interruption.isRequested {
            printError("interrupted: \(summary.cancelled) of \(summary.total) URLs were not loaded")
            throw ExitCode(Interruption.exitStatus)
        }
        if summary.skipped > 0 || !invalid.isEmpty { throw ExitCode.failure }
    }
}
