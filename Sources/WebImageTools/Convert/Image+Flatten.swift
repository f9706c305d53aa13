package import WebImageKit

extension Image {
    /// The image composited onto an opaque `background` by ``ImageTransformers/Flatten``, for formats without
    /// alpha (JPEG); an opaque image is returned as it is.
    package func flattened(onto background: RGBA) -> Image {
        guard hasAlpha else { return self }
        let flatten = ImageTransformers.Flatten(background: background)
        let flattenedFrames = frames.map { ImageFrame(pixels: flatten.flattened($0.pixels), duration: $0.duration) }
        return Image(frames: flattenedFrames, format: format, scale: scale, orientation: orientation, loopCount: loopCount)
    }
}
