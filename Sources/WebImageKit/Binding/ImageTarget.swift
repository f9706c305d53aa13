import Foundation
public import WebImageCore

/// Anything that shows images: a widget, a terminal cell, a file on disk, a test double (SDWebImage's
/// view categories without UIKit, SPEC VW-*). Adopt it, keep one ``ImageLoadState``, and call
/// ``setImage(with:placeholder:options:context:slot:transition:manager:progress:completed:)``.
///
/// The binding calls the methods below from whatever task delivers the result (there is no main
/// thread to hop to on Linux), so implementations must be thread-safe; a UI toolkit
/// target hops to its own thread inside them.
///
/// ```swift
/// final class Thumbnail: ImageTarget {
///     let imageLoadState = ImageLoadState()
///     let shown = LockedImage()
///     func setImage(_ image: Image?, for slot: ImageSlot, transition: ImageTransition?, cacheType: ImageCacheType) {
///         shown.set(image)
///     }
/// }
/// thumbnail.setImage(with: url, placeholder: grey)
/// ```
public protocol ImageTarget: AnyObject, Sendable {
    /// The target's load bookkeeping: what runs in each slot, and the URL of each.
    var imageLoadState: ImageLoadState { get }

    /// Shows `image` in `slot`: a placeholder (`transition == nil`, `cacheType == .notCached`), a
    /// partial or whole result, or `nil` to clear. Animate with `transition` when it is given.
    func setImage(_ image: Image?, for slot: ImageSlot, transition: ImageTransition?, cacheType: ImageCacheType)

    /// Reports download progress of the load in `slot`. Default: nothing.
    func imageLoadDidProgress(_ progress: DownloadProgress, for slot: ImageSlot)

    /// Reports that the load in `slot` failed. Default: nothing.
    func imageLoadDidFail(_ error: ImageLoadError, for slot: ImageSlot)

    /// Shows a list of images as an animation, in order; called again as more arrive. Default: nothing.
    func setAnimationImages(_ images: [Image], for slot: ImageSlot)
}

extension ImageTarget {
    /// Ignores progress by default.
    public func imageLoadDidProgress(_ progress: DownloadProgress, for slot: ImageSlot) {}
    /// Ignores failures by default.
    public func imageLoadDidFail(_ error: ImageLoadError, for slot: ImageSlot) {}
    /// Ignores animation images by default.
    public func setAnimationImages(_ images: [Image], for slot: ImageSlot) {}
}

/// Which of a target's images a load is for: its operation key. Loads in different slots run
/// side by side; a new load in a slot cancels the one before it. The keyed variants stand in for
/// UIKit's highlighted image and button states.
public struct ImageSlot: Hashable, Sendable {
    /// The operation key.
    public let key: String

    /// A slot named by `key`.
    public init(_ key: String) { self.key = key }

    /// The main image (the default).
    public static let image = ImageSlot("image")
    /// The highlighted image.
    public static let highlighted = ImageSlot("highlighted")
    /// The animation images of ``ImageTarget/setAnimationImages(with:options:context:manager:completed:)``.
    public static let animation = ImageSlot("animation")

    /// The image for a control state, such as `"normal"` or `"selected"`.
    public static func image(forState state: String) -> ImageSlot { ImageSlot("image_\(state)") }
    /// The background image for a control state.
    public static func backgroundImage(forState state: String) -> ImageSlot { ImageSlot("backgroundImage_\(state)") }
}
