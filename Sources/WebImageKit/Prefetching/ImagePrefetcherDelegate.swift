public import Foundation

/// Hears about a prefetch as it goes (SPEC PF-08, PF-09). Both methods have empty defaults; they are
/// called from background tasks.
public protocol ImagePrefetcherDelegate: AnyObject, Sendable {
    /// One URL is done, whether it succeeded or not (PF-08).
    func imagePrefetcher(_ prefetcher: ImagePrefetcher, didPrefetch url: URL, finishedCount: Int, totalCount: Int)

    /// Every URL is done: `totalCount` counts the successes, `skippedCount` the failures (PF-09, PF-18).
    func imagePrefetcher(_ prefetcher: ImagePrefetcher, didFinishWithTotalCount totalCount: Int, skippedCount: Int)
}

extension ImagePrefetcherDelegate {
    /// Does nothing by default.
    public func imagePrefetcher(_ prefetcher: ImagePrefetcher, didPrefetch url: URL, finishedCount: Int, totalCount: Int) {}
    /// Does nothing by default.
    public func imagePrefetcher(_ prefetcher: ImagePrefetcher, didFinishWithTotalCount totalCount: Int, skippedCount: Int) {}
}

/// What a prefetch reports through ``ImagePrefetcher/updates(for:)``.
public enum ImagePrefetchUpdate: Sendable, Equatable {
    /// One URL is done: `finished` of `total` are done now (PF-10).
    case progress(url: URL, finished: Int, total: Int)
    /// Everything is done: `finished` URLs, of which `skipped` failed (PF-11).
    case completed(finished: Int, skipped: Int)
}
