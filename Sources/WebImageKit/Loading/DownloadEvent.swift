public import Foundation

/// Something that happened to a download, as ``ImageDownloader/events()`` reports it (SPEC NT-01…NT-04, DL-11).
///
/// For one network attempt the order is `started`, `receivedResponse` (only for an acceptable
/// response), any `progress`, `stopped`; a successful download then adds `finished`. A retried
/// download repeats `started` … `stopped` for each attempt.
public enum DownloadEvent: Sendable, Hashable {
    /// The request was sent (SPEC NT-01).
    case started(URL)
    /// An acceptable response head arrived (SPEC NT-03).
    case receivedResponse(URL, DownloadResponse)
    /// Bytes arrived (SPEC DL-11).
    case progress(DownloadProgress)
    /// The network part ended, successfully or not (SPEC NT-02).
    case stopped(URL)
    /// The download succeeded: bytes to decode, or "not modified" (SPEC NT-04).
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
    /// Posted by an ``ImageDownloader`` when a request is sent; `userInfo[ImageDownloader.urlUserInfoKey]` is the URL (SPEC NT-01).
    public static let imageDownloadStart = Notification.Name("WebImageKit.ImageDownloadStart")
    /// Posted when an acceptable response arrives (SPEC NT-03).
    public static let imageDownloadReceiveResponse = Notification.Name("WebImageKit.ImageDownloadReceiveResponse")
    /// Posted when the network part of a download ends, successfully or not (SPEC NT-02).
    public static let imageDownloadStop = Notification.Name("WebImageKit.ImageDownloadStop")
    /// Posted after ``imageDownloadStop`` when a download succeeded (SPEC NT-04).
    public static let imageDownloadFinish = Notification.Name("WebImageKit.ImageDownloadFinish")
}
