/// One frame of an image: its pixels and how long it is shown.
///
/// Every frame of an ``Image`` covers the whole canvas: decoders composite partial animation frames
/// (GIF disposal, WebP and APNG blending) so frames can be shown as they are.
public struct ImageFrame: Hashable, Sendable {
    /// The frame's pixels, the full canvas.
    public var pixels: PixelBuffer
    /// How long the frame is shown; zero for a still image.
    public var duration: Duration

    /// Creates a frame.
    public init(pixels: PixelBuffer, duration: Duration = .zero) {
        self.pixels = pixels
        self.duration = duration
    }
}
