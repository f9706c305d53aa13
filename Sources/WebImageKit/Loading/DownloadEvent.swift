public import Foundation

/// Something that happened to a download, as ``ImageDownloader/events()`` reports it.
///
/// For one network attempt the order is `started`, `receivedResponse` (only for an acceptable
/// response), any `progress`, `stopped`; a successful download then adds `finished`. A retried
/// download repeats `started` … `stopped` for each attempt.
public enum DownloadEvent: Sendable, Hashable {
    /// The request was sent.
    case started(URL)
    /// An acceptable response head arrived.
    case receivedResponse(URL, DownloadResponse)
    /// Bytes arrived.
    case progress(DownloadProgress)
    /// The network part ended, successfully or not.
    case stopped(URL)
    /// The download succeeded: bytes to decode, or "not modified".
    case finished(URL)

    /// The URL the event concerns (as requested, before redirects).
    public var url: URL {
        switch self {
        case .started(let url), .receivedResponse(let url, _), .stopped(let url), .finished(let url): url
        case .progress(let progress): progress.url
        }
    }

    /// The notification posted for this event, if any (progress posts none).
    var notificationName: Notification.Name? {
        switch self {
        case .started: .imageDownloadStart
        case .receivedResponse: .imageDownloadReceiveResponse
        case .stopped: .imageDownloadStop
        case .finished: .imageDownloadFinish
        case .progress: nil
        }
    }
}

extension Notification.Name {
    /// Posted by an ``ImageDownloader`` when a request is sent; `userInfo[ImageDownloader.urlUserInfoKey]` is the URL.
    public static let imageDownloadStart = Notification.Name("WebImageKit.ImageDownloadStart")
    /// Posted when an acceptable response arrives.
    public static let imageDownloadReceiveResponse = Notification.Name("WebImageKit.ImageDownloadReceiveResponse")
    /// Posted when the network part of a download ends, successfully or not.
    public static let imageDownloadStop = Notification.Name("WebImageKit.ImageDownloadStop")
    /// Posted after ``imageDownloadStop`` when a download succeeded.
    public static let imageDownloadFinish = Notification.Name("WebImageKit.ImageDownloadFinish")
}
