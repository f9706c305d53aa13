public import Foundation

/// Hears about a prefetch as it goes. Both methods have empty defaults; they are
/// called from background tasks.
public protocol ImagePrefetcherDelegate: AnyObject, Sendable {
    /// One URL is done, whether it succeeded or not.
    func imagePrefetcher(_ prefetcher: ImagePrefetcher, didPrefetch url: URL, finishedCount: Int, totalCount: Int)

    /// Every URL is done: `totalCount` counts the successes, `skippedCount` the failures.
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
    /// One URL is done: `finished` of `total` are done now.
    case progress(url: URL, finished: Int, total: Int)
    /// Everything is done: `finished` URLs, of which `skipped` failed.
    case completed(finished: Int, skipped: Int)
}
