/// An animation whose frames can be produced one at a time, for ``AnimatedImagePlayer``.
///
/// The metadata (frame count, durations, loop count, size) is known up front; the pixels of a frame
/// are produced by ``frame(at:)``, which may be expensive: an on-demand source holds only the encoded
/// bytes and one composition canvas, so it decodes frame after frame (GIF disposal, APNG and WebP
/// blending make each frame depend on the ones before it) and starts over from the first frame when
/// asked for an earlier one. ``DecodedFrameSource`` serves the frames of an already decoded ``Image``.
///
/// Threading contract: a source is `Sendable`; ``frame(at:)`` may be called from any thread and is
/// correct for any index in any order. Sources that keep decoding state serialise calls internally.
///
/// ```swift
/// if let source = try ImageCodersManager.shared.animatedFrameSource(for: gifData) {
///     let player = AnimatedImagePlayer(source: source)
///     let pixels = try player.frame(at: .milliseconds(250))
/// }
/// ```
public protocol AnimatedImageFrameSource: Sendable {
    /// The number of frames, at least one.
    var frameCount: Int { get }
    /// How many times the animation plays: 0 means forever, 1 means once (as ``Image/loopCount``).
    var loopCount: Int { get }
    /// The size of every frame in pixels.
    var pixelSize: PixelSize { get }
    /// How the frames must be turned to be upright; `.up` when they already are.
    var orientation: ImageOrientation { get }
    /// How long frame `index` is shown, as the file says it (after the decoder's own short-delay rule);
    /// ``AnimatedImagePlayer`` additionally plays durations under 11 ms as 100 ms.
    func duration(ofFrame index: Int) -> Duration
    /// The full-canvas pixels of frame `index` (`0..<frameCount`), composited exactly as a full decode
    /// would give them; throws ``ImageCodingError`` when the frame's data is corrupt.
    func frame(at index: Int) throws -> PixelBuffer
}

extension AnimatedImageFrameSource {
    /// Frames are upright unless a source says otherwise.
    public var orientation: ImageOrientation { .up }
    /// The bytes one decoded frame takes.
    public var frameByteCount: Int { pixelSize.pixelCount * PixelBuffer.bytesPerPixel }
    /// The sum of every frame's duration as the source reports it.
    public var totalDuration: Duration { (0..<frameCount).reduce(.zero) { $0 + duration(ofFrame: $1) } }
}
