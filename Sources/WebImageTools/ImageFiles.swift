package import Foundation
package import WebImageKit

/// The file operations behind `webimage info` and `samples`, as library calls (`convert`: ``BatchConversion``).
package enum ImageFiles {
    /// Decodes the file at `url` and summarises it.
    package static func summarize(
        fileAt url: URL, coders: ImageCodersManager = .shared, options: ImageDecodingOptions = ImageDecodingOptions()
    ) throws -> ImageSummary {
        let data = try Data(contentsOf: url)
        let image = try coders.decode(data, options: options)
        return ImageSummary(image: image, byteCount: data.count, source: url.relativePath)
    }

    /// Writes generated images, one per supported kind, into `directory` and returns their URLs:
    /// a photo-like JPEG, a PNG with alpha, a lossy WebP, a lossless WebP with alpha, an animated GIF,
    /// an animated WebP and an AVIF. `photoSize` sets the size of the still images (the alpha ones are
    /// half as large); `names` keeps only the files whose names are listed.
    @discardableResult
    package static func writeSamples(
        to directory: URL,
        photoSize: PixelSize = PixelSize(width: 960, height: 640),
        names: Set<String>? = nil,
        coders: ImageCodersManager = .shared
    ) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (width, height) = (photoSize.width, photoSize.height)
        let photo = { Image(pixels: .samplePattern(width: width, height: height)) }
        let alpha = { Image(pixels: .samplePattern(width: max(width / 2, 1), height: max(height / 2, 1), alpha: true, seed: 2)) }
        let animation = {
            Image(
                frames: (0..<6).map { step in
                    ImageFrame(pixels: .samplePattern(width: 160, height: 120, alpha: step % 2 == 1, seed: UInt32(step + 3)),
                               duration: .milliseconds(120))
                },
                loopCount: 0
            )
        }
        let samples: [(String, () -> Image, ImageFormat, ImageEncodingOptions)] = [
            ("photo.jpg", photo, .jpeg, ImageEncodingOptions(quality: 0.85)),
            ("alpha.png", alpha, .png, ImageEncodingOptions()),
            ("photo.webp", photo, .webp, ImageEncodingOptions(quality: 0.8)),
            ("alpha-lossless.webp", alpha, .webp, ImageEncodingOptions(lossless: true)),
            ("animation.gif", animation, .gif, ImageEncodingOptions()),
            ("animation.webp", animation, .webp, ImageEncodingOptions(quality: 0.8)),
            ("photo.avif", photo, .avif, ImageEncodingOptions(quality: 0.6)),
            ("photo.png", photo, .png, ImageEncodingOptions()),
        ]
        let defaultNames: Set<String> = Set(samples.map(\.0)).subtracting(["photo.png"])
        return try samples.filter { (names ?? defaultNames).contains($0.0) }.map { name, makeImage, format, options in
            let url = directory.appendingPathComponent(name)
            try coders.encode(makeImage(), as: format, options: options).write(to: url, options: .atomic)
            return url
        }
    }
}
