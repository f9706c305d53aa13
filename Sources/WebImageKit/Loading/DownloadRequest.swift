public import Foundation

/// The request a download is about to send, as ``ImageDownloader/Configuration/requestModifier`` sees
/// and may change it (issue item 5).
public struct DownloadRequest: Sendable, Hashable {
    /// The URL to fetch (a modifier may point it elsewhere; callers of the original URL still share it).
    public var url: URL
    /// The request headers (names as configured; at most one value per name).
    public var headers: [String: String]

    /// Creates a request.
    public init(url: URL, headers: [String: String]) {
        self.url = url
        self.headers = headers
    }
}
