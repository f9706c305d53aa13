/// Reads the display scale from a cache key or URL: `@3x.` gives 3, `@2x.` gives 2, anything else 1
/// (SDWebImage's `SDImageScaleFactorForKey`). Keys shorter than 8 characters are never scaled, as in SDWebImage.
///
/// ```swift
/// imageScale(forKey: "https://example.com/icon@2x.png")   // 2
/// ```
public func imageScale(forKey key: String) -> Double {
    guard key.utf8.count >= 8 else { return 1 }
    if key.contains("@3x.") { return 3 }
    if key.contains("@2x.") { return 2 }
    return 1
}

extension Image {
    /// The image with ``Image/scale`` set from `key`: every frame keeps its
    /// pixels, and an animation keeps its loop count and format. Returns `self` when the scale does not change.
    public func scaled(forKey key: String) -> Image {
        let scale = imageScale(forKey: key)
        return scale == self.scale ? self : with(scale: scale)
    }
}
