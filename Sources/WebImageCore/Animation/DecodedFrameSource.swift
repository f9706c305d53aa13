/// The frames of an already decoded ``Image`` as an ``AnimatedImageFrameSource``: every frame is in
/// memory, so ``frame(at:)`` costs nothing.
///
/// ```swift
/// let player = AnimatedImagePlayer(source: DecodedFrameSource(image))
/// ```
public struct DecodedFrameSource: AnimatedImageFrameSource {
    /// The image whose frames this source serves.
    public let image: Image

    /// Creates a source serving `image`'s frames.
    public init(_ image: Image) {
        self.image = image
    }

    /// The image's frame count.
    public var frameCount: Int { image.frames.count }
    /// The image's loop count.
    public var loopCount: Int { image.loopCount }
    /// The image's size in pixels.
    public var pixelSize: PixelSize { image.pixelSize }
    /// The image's orientation.
    public var orientation: ImageOrientation { image.orientation }

    /// The stored duration of frame `index`.
    public func duration(ofFrame index: Int) -> Duration {
        image.frames[index].duration
    }

    /// The stored pixels of frame `index`; an index outside `0..<frameCount` throws ``ImageCodingError/Code/corruptData``.
    public func frame(at index: Int) throws -> PixelBuffer {
        guard image.frames.indices.contains(index) else {
            throw ImageCodingError(.corruptData, format: image.format, "frame \(index) of \(frameCount) does not exist")
        }
        return image.frames[index].pixels
    }
}
