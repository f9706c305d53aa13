package import Foundation
import WebImageKit

/// Downloads a list of URLs at once for `scripts/bench-download.sh` (issue 5's benchmark), so that the
/// whole run can be timed beside `curl --parallel`.
///
/// Every URL is requested at the same moment, as an app asking for a screenful of images does: the
/// downloader's concurrency limit and its one-request-per-URL rule decide what goes on the wire.
package enum DownloadBenchmark {
    /// What one run did.
    package struct Results: Sendable, Codable {
        /// URLs requested (repeats included).
        package var requested: Int
        /// Requests that ended with the image's bytes.
        package var succeeded: Int
        /// Requests that failed.
        package var failed: Int
        /// Encoded bytes received, counted once per distinct URL.
        package var bytes: Int
        /// Wall-clock seconds from the first request to the last completion.
        package var seconds: Double
    }

    /// Downloads every URL in `urls` with at most `concurrency` transfers at once, without decoding
    /// (``ImageDownloader/data(for:options:progress:)``: the work `curl` does).
    package static func run(urls: [URL], concurrency: Int) async throws -> Results {
        var configuration = ImageDownloader.Configuration()
        configuration.maximumConcurrentDownloads = concurrency
        let clock = ContinuousClock()
        let start = clock.now
        let outcomes = try await withImageDownloader(configuration: configuration) { downloader in
            await withTaskGroup(of: (URL, Int?).self) { group in
                for url in urls {
                    group.addTask { (url, try? await downloader.data(for: url).data.count) }
                }
                var outcomes: [(URL, Int?)] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
        }
        let elapsed = clock.now - start
        let succeeded = outcomes.filter { $0.1 != nil }
        let bytesByURL = Dictionary(succeeded.map { ($0.0, $0.1 ?? 0) }) { first, _ in first }
        return Results(
            requested: urls.count, succeeded: succeeded.count, failed: urls.count - succeeded.count,
            bytes: bytesByURL.values.reduce(0, +),
            seconds: elapsed.seconds
        )
    }
}
