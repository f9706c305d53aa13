package import Foundation
package import WebImageKit

/// The URL lists `webimage prefetch` reads and loads: one URL per line, `#` comments and blank lines skipped.
package enum PrefetchList {
    /// A line of the list that is not a URL.
    package struct InvalidLine: Sendable, Equatable {
        /// The line number, from 1.
        package var number: Int
        /// The text of the line.
        package var text: String
    }

    /// The URLs of `text`, and the lines that are not URLs.
    package static func parse(_ text: String) -> (urls: [URL], invalid: [InvalidLine]) {
        var urls: [URL] = []
        var invalid: [InvalidLine] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            if let url = URL(string: trimmed), url.scheme != nil {
                urls.append(url)
            } else {
                invalid.append(InvalidLine(number: index + 1, text: trimmed))
            }
        }
        return (urls, invalid)
    }

    /// The reason given for a URL whose bytes are no image.
    static let notAnImage = "the bytes are not an image webimage can decode"

    /// What ``load(_:manager:concurrency:finished:)`` did.
    package struct Outcome: Sendable {
        /// Each failed URL with its reason in words, in list order.
        package var failures: [(url: URL, reason: String)]
        /// URLs not loaded because the task was cancelled (under way, or never started).
        package var cancelled: Int
    }

    /// URLs under way for each download slot: the others look in the cache or wait for their disk write beside
    /// the downloads (300 images 1.4× faster than one). Which of them takes a free slot first depends on which
    /// cache lookup ends first, so downloads start roughly, not strictly, in list order.
    package static let urlsUnderWayPerDownload = 4

    /// Loads every URL's bytes into `manager`'s disk cache without decoding them (Nuke's `ImagePrefetcher`
    /// with destination `.diskCache`): low priority, each done once its disk write is; `finished` hears the
    /// count done after each. Bytes that no coder of the manager recognises by their signature fail the URL and
    /// are removed from the cache. When the calling task is cancelled (Ctrl-C), the loads under way are cancelled
    /// and no more start.
    /// - Parameter concurrency: the downloads at a time, which the manager's downloader must be limited to
    ///   (``urlsUnderWayPerDownload`` times as many URLs are under way).
    package static func load(
        _ urls: [URL], manager: ImageManager, concurrency: Int, finished: @escaping @Sendable (Int) -> Void = { _ in }
    ) async -> Outcome {
        enum Result: Sendable { case loaded, failed(String), cancelled }
        return await withTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            func startNext() {
                guard next < urls.count, !Task.isCancelled else { return }
                let (index, url) = (next, urls[next])
                next += 1
                group.addTask {
                    do {
                        let downloaded = try await manager.loadData(from: url, options: [.lowPriority, .waitStoreCache])
                        guard manager.configuration.coders.canDecode(downloaded.data) else {
                            try? await manager.cache.remove(forKey: manager.cacheKey(for: url), cacheType: .disk)
                            return (index, .failed(notAnImage))
                        }
                        return (index, .loaded)
                    } catch {
                        if Task.isCancelled { return (index, .cancelled) }
                        return (index, .failed(ToolError(nil, describing: error).description))
                    }
                }
            }
            let (product, overflow) = max(1, concurrency).multipliedReportingOverflow(by: urlsUnderWayPerDownload)
            for _ in 0..<min(urls.count, overflow ? Int.max : product) { startNext() }
            var results = [Result](repeating: .cancelled, count: urls.count)
            var done = 0
            for await (index, result) in group {
                results[index] = result
                done += 1
                finished(done)
                startNext()
            }
            let failures = zip(urls, results).compactMap { url, result -> (url: URL, reason: String)? in
                if case .failed(let reason) = result { return (url, reason) }
                return nil
            }
            let cancelled = results.filter { if case .cancelled = $0 { true } else { false } }.count
            return Outcome(failures: failures, cancelled: cancelled)
        }
    }
}
