import Foundation
import WebImageKit
import WebImageTestSupport

/// Images and caches for the ImageCache tests.
enum ImageCacheFixture {
    static let opaque = Image(pixels: PixelBuffer(width: 4, height: 3, fill: RGBA(red: 200, green: 10, blue: 10)))
    static let translucent = Image(pixels: PixelBuffer(width: 4, height: 3, fill: RGBA(red: 0, green: 0, blue: 255, alpha: 128)))

    static func png(width: Int = 4, height: Int = 3) throws -> Data {
        try ImageCodersManager.shared.encode(
            Image(pixels: PixelBuffer(width: width, height: height, fill: RGBA(red: 1, green: 2, blue: 3, alpha: 100))),
            as: .png, options: ImageEncodingOptions())
    }

    /// A cache in a fresh temporary root (no sweep, no weak table unless asked).
    static func cache(
        _ root: TemporaryDirectory, namespace: String = "ns",
        configure: (inout ImageCache.Configuration) -> Void = { _ in }
    ) -> ImageCache {
        var configuration = ImageCache.Configuration()
        configure(&configuration)
        return ImageCache(namespace: namespace, root: root.url, configuration: configuration)
    }
}
