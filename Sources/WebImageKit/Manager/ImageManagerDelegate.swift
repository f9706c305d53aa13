public import Foundation
public import WebImageCore

/// Hooks into ``ImageManager``'s decisions (SDWebImage's `SDWebImageManagerDelegate`).
///
/// Every method has a default, so implement only what you need. The manager holds its delegate
/// weakly and calls it from background tasks, so implementations must be thread-safe.
public protocol ImageManagerDelegate: AnyObject, Sendable {
    /// Whether `url`, which is not cached, may be downloaded. Default: `true`.
    func imageManager(_ manager: ImageManager, shouldDownloadImageFor url: URL) -> Bool

    /// Whether a failed `url` goes on the failed-URL list. Default: when `error` is not
    /// transient (``ImageLoadError/isTransient``).
    func imageManager(_ manager: ImageManager, shouldBlockFailedURL url: URL, error: ImageLoadError) -> Bool

    /// Transforms a freshly downloaded image before it is cached; runs on a background
    /// task. Animated images are passed only with ``ImageLoadOptions/transformAnimatedImage``. Return
    /// `image` itself to leave it unchanged (the default), or a new image (cached without the bytes).
    func imageManager(_ manager: ImageManager, transformDownloadedImage image: Image, for url: URL) -> Image
}

extension ImageManagerDelegate {
    /// Allows every download by default.
    public func imageManager(_ manager: ImageManager, shouldDownloadImageFor url: URL) -> Bool { true }

    /// Blocks permanent failures by default (``ImageLoadError/isTransient`` is false).
    public func imageManager(_ manager: ImageManager, shouldBlockFailedURL url: URL, error: ImageLoadError) -> Bool {
        !error.isTransient
    }

    /// Returns the image unchanged by default.
    public func imageManager(_ manager: ImageManager, transformDownloadedImage image: Image, for url: URL) -> Image {
        image
    }
}
