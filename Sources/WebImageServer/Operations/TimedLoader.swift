import Foundation
import WebImageKit

/// The server's loader with its download stage timed: forwards to `base`.
struct TimedLoader: ImageLoading {
    let base: any ImageLoading
    let metrics: ServerMetrics

    func canLoad(_ url: URL) -> Bool { base.canLoad(url) }

    func loadData(
        for url: URL, options: DownloadOptions, validators: Validators?, progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> DownloadedData {
        try await metrics.time(.download) {
            try await base.loadData(for: url, options: options, validators: validators, progress: progress)
        }
    }
}
