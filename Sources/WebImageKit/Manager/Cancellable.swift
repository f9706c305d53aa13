/// Something in flight that can be stopped: a load, a download token, a cache query (SDWebImage's
/// `SDWebImageOperation`).
///
/// `cancel()` is idempotent and safe from any thread; after it returns, the work's completion is not called.
public protocol Cancellable: AnyObject, Sendable {
    /// Stops the work; does nothing when it already finished or was cancelled.
    func cancel()
}

extension DownloadToken: Cancellable {}
extension CacheQueryOperation: Cancellable {}
