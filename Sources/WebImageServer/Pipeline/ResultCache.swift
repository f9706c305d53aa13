import Foundation
import WebImageKit

/// The processed results on disk (`<cache>/results`), bounded in size, under ``ImageJob/key``; each entry keeps
/// its bytes and, beside them, its format and validators. Least recently used entries beyond the size limit go
/// in a clean after every 64 stores.
final class ResultCache: Sendable {
    /// What is kept beside a result's bytes.
    struct Metadata: Codable, Sendable, Equatable {
        var format: ImageFormat
        var etag: String
        var lastModified: String?
        /// The source's caching headers (absent in entries written before they were kept).
        var sourceCaching: SourceCaching?
        /// What was wrong with a damaged source (absent for a clean one).
        var sourceIssues: [String]?
        /// When the result was made.
        var created: Date
    }

    private let disk: DiskCache?
    private let stores = LockedValue(0)

    /// A cache of at most `maximumSize` bytes under `root`; none when `maximumSize` is 0.
    init(root: URL?, maximumSize: Int) {
        // Not flushed (the disk cache's default): one lost to a power cut is only made again.
        let configuration = DiskCacheConfiguration(maxAge: nil, maxSize: maximumSize)
        disk = maximumSize > 0 ? DiskCache(namespace: "results", root: root, configuration: configuration) : nil
    }

    /// The stored result for `key` made less than `maximumAge` ago, or nil.
    func result(forKey key: String, maximumAge: Duration) async -> ProcessedImage? {
        guard let disk, let entry = await disk.entry(forKey: key),
            let extended = entry.extendedData,
            let metadata = try? JSONDecoder().decode(Metadata.self, from: extended),
            Date().timeIntervalSince(metadata.created) < maximumAge.seconds
        else { return nil }
        var result = ProcessedImage(data: entry.data, format: metadata.format, etag: metadata.etag, lastModified: metadata.lastModified)
        result.sourceCaching = metadata.sourceCaching ?? SourceCaching()
        result.sourceIssues = metadata.sourceIssues ?? []
        return result
    }

    /// Stores `result` under `key`; a failure (a full disk) only means the next request processes again.
    func store(_ result: ProcessedImage, forKey key: String) async {
        guard let disk else { return }
        let metadata = Metadata(
            format: result.format, etag: result.etag, lastModified: result.lastModified, sourceCaching: result.sourceCaching,
            sourceIssues: result.sourceIssues.isEmpty ? nil : result.sourceIssues, created: Date())
        guard let extended = try? JSONEncoder().encode(metadata) else { return }
        try? await disk.store(result.data, forKey: key, extendedData: extended)
        let count = stores.withLock { count in
            count += 1
            return count
        }
        if count % 64 == 0 { _ = try? await disk.clean() }
    }
}
