package import Foundation
package import WebImageKit

/// The images `webimage demo` serves from its embedded origin: one of every kind WebImageKit handles.
package enum DemoImages {
    /// One generated file.
    package struct File: Sendable {
        /// The URL path, such as `/photo-progressive.jpg`.
        package var path: String
        /// The bytes.
        package var data: Data
        /// The `Content-Type`.
        package var contentType: String
        /// What it shows off.
        package var note: String
    }

    /// Generates the files: a large progressive JPEG, a PNG with alpha, an animated GIF and WebP, an AVIF,
    /// and a very large JPEG that loads only scaled down. `scale` shrinks everything (1 for the demo; tests
    /// use less so that a debug build stays quick).
    package static func generate(scale: Double = 1, coders: ImageCodersManager = .shared) throws -> [File] {
        func size(_ width: Int, _ height: Int) -> (Int, Int) {
            (max(16, Int(Double(width) * scale)), max(16, Int(Double(height) * scale)))
        }
        let (photoWidth, photoHeight) = size(2400, 1600)
        let (hugeWidth, hugeHeight) = size(8192, 6144)
        let (alphaWidth, alphaHeight) = size(640, 480)
        let animation = Image(
            frames: (0..<8).map { step in
                ImageFrame(pixels: .samplePattern(width: 240, height: 180, alpha: step % 2 == 1, seed: UInt32(step + 3)),
                           duration: .milliseconds(100))
            },
            loopCount: 0)
        let photo = Image(pixels: .samplePattern(width: photoWidth, height: photoHeight))
        return [
            File(path: "/photo-progressive.jpg",
                 data: try coders.encode(photo, as: .jpeg, options: ImageEncodingOptions(quality: 0.85, progressive: true)),
                 contentType: "image/jpeg", note: "large progressive JPEG"),
            File(path: "/alpha.png",
                 data: try coders.encode(Image(pixels: .samplePattern(width: alphaWidth, height: alphaHeight, alpha: true, seed: 2)),
                                         as: .png, options: ImageEncodingOptions()),
                 contentType: "image/png", note: "PNG with alpha"),
            File(path: "/animation.gif", data: try coders.encode(animation, as: .gif, options: ImageEncodingOptions()),
                 contentType: "image/gif", note: "animated GIF"),
            File(path: "/animation.webp", data: try coders.encode(animation, as: .webp, options: ImageEncodingOptions(quality: 0.8)),
                 contentType: "image/webp", note: "animated WebP"),
            File(path: "/photo.avif",
                 data: try coders.encode(Image(pixels: .samplePattern(width: photoWidth / 2, height: photoHeight / 2, seed: 7)),
                                         as: .avif, options: ImageEncodingOptions(quality: 0.6)),
                 contentType: "image/avif", note: "AVIF"),
            File(path: "/huge.jpg",
                 data: try coders.encode(Image(pixels: .samplePattern(width: hugeWidth, height: hugeHeight, seed: 11)),
                                         as: .jpeg, options: ImageEncodingOptions(quality: 0.7)),
                 contentType: "image/jpeg", note: "very large JPEG, scaled down while decoding"),
        ]
    }
}
