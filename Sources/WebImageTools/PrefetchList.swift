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

    /// Loads every URL through `manager` (low priority, waiting for the disk cache to be written),
    /// `concurrency` at a time; `finished` hears the count done after each. Returns each failed URL with
    /// its reason in words, in list order.
    package static func load(
        _ urls: [URL], manager: ImageManager, concurrency: Int, finished: @escaping @Sendable (Int) -> Void = { _ in }
    ) async -> [(url: URL, reason: String)] {
        await withTaskGroup(of: (Int, String?).self) { group in
            var next = 0
            func startNext() {
                guard next < urls.count else { return }
                let (index, url) = (next, urls[next])
                next += 1
                group.addTask {
                    do {
                        _ = try await manager.loadImage(from: url, options: [.lowPriority, .waitStoreCache])
                        return (index, nil)
                    } catch {
                        return (index, ToolError(nil, describing: error).description)
                    }
                }
            }
            for _ in 0..<max(1, concurrency) { startNext() }
            var reasons = [String?](repeating: nil, count: urls.count)
            var done = 0
            for await (index, reason) in group {
                reasons[index] = reason
                done += 1
                finished(done)
                startNext()
            }
            return zip(urls, reasons).compactMap { url, reason in reason.map { (url, $0) } }
        }
    }
}
