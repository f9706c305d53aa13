import Foundation

extension ImageDownloader {
    /// The `userInfo` key of the URL in the downloader's notifications (`Notification.Name.imageDownloadStart` …).
    public static let urlUserInfoKey = "url"

    /// A stream of every download event of this downloader from now on, progress included; it ends
    /// when the downloader shuts down. Each call returns a new, independent stream.
    ///
    /// ```swift
    /// Task {
    ///     for await event in downloader.events() {
    ///         if case .progress(let progress) = event { show(progress.receivedBytes, of: progress.expectedBytes) }
    ///     }
    /// }
    /// ```
    public func events() -> AsyncStream<DownloadEvent> {
        broadcaster.makeStream()
    }

    /// Reports `event` to the event streams and, unless switched off, as a notification whose object
    /// is the downloader.
    func emit(_ event: DownloadEvent) {
        broadcaster.yield(event)
        if state.withLock({ $0.configuration.postsNotifications }), let name = event.notificationName {
            NotificationCenter.default.post(name: name, object: self, userInfo: [Self.urlUserInfoKey: event.url])
        }
    }
}
