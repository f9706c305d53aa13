import Foundation
import WebImageKit

/// imgproxy's limits on animations (`IMGPROXY_MAX_ANIMATION_FRAMES`, `IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION`, and
/// the URL's `max_animation_frames`, `max_animation_frame_resolution`), applied while decoding.
///
/// Only the first ``maximumFrames`` frames are processed (imgproxy drops the rest; it is not an error). The frames
/// processed are then checked as imgproxy checks them: each against ``maximumFramePixelCount`` when it is set, else
/// all of them together against ``maximumPixelCount`` (422 when over). For GIF, PNG and WebP the frame count and
/// size come from the file's structure, so the check and the cut happen before any frame is decoded; other formats
/// are decoded within the animation memory budget first, then cut and checked.
struct AnimationLimits: Sendable {
    /// The most frames processed; nil: every frame.
    let maximumFrames: Int?
    /// The most pixels one frame may have; nil: the frames together are checked against ``maximumPixelCount``.
    let maximumFramePixelCount: Int?
    /// The most pixels the source (all the frames processed together) may have.
    let maximumPixelCount: Int

    /// An animation over a limit: its 422 message.
    struct Exceeded: Error {
        let message: String
    }

    /// `data` decoded with `options`, its animation cut to ``maximumFrames`` and checked.
    func decode(_ data: Data, options: ImageDecodingOptions, coders: ImageCodersManager) throws -> Image {
        guard !options.firstFrameOnly else { return try coders.decode(data, options: options) }
        var header = options
        (header.thumbnailPixelSize, header.scaleDownLimitBytes) = (nil, nil)
        guard let structure = try coders.animatedFrameSource(for: data, options: header), structure.frameCount > 1 else {
            return try cut(coders.decode(data, options: options))
        }
        var count = min(structure.frameCount, maximumFrames ?? structure.frameCount)
        try check(frameSize: structure.pixelSize, frames: count)
        guard count < structure.frameCount else { return try coders.decode(data, options: options) }
        guard let source = try coders.animatedFrameSource(for: data, options: options) else { return try cut(coders.decode(data, options: options)) }
        let (bytes, overflow) = source.frameByteCount.multipliedReportingOverflow(by: count)
        if overflow || bytes > options.maximumAnimationByteCount { count = 1 }
        let frames = try (0..<count).map { ImageFrame(pixels: try source.frame(at: $0), duration: source.duration(ofFrame: $0)) }
        return Image(frames: frames, format: ImageFormat(detecting: data), loopCount: source.loopCount)
    }

    /// `image` with at most ``maximumFrames`` frames, checked.
    func cut(_ image: Image) throws -> Image {
        guard image.frames.count > 1 else { return image }
        let count = min(image.frames.count, maximumFrames ?? image.frames.count)
        try check(frameSize: image.pixelSize, frames: count)
        guard count < image.frames.count else { return image }
        return Image(frames: Array(image.frames.prefix(count)), format: image.format, scale: image.scale, orientation: image.orientation,
                     loopCount: image.loopCount, iccProfile: image.iccProfile)
    }

    /// imgproxy's check of `frames` frames of `frameSize`: each frame against the frame limit when one is set,
    /// else all of them against the source limit.
    func check(frameSize: PixelSize, frames: Int) throws(Exceeded) {
        let (total, overflow) = frameSize.pixelCount.multipliedReportingOverflow(by: max(frames, 1))
        if frames > 1, let maximumFramePixelCount {
            guard frameSize.pixelCount <= maximumFramePixelCount else {
                throw Exceeded(message: "a frame of the source animation has more than \(maximumFramePixelCount) pixels")
            }
        } else if overflow || total > maximumPixelCount {
            throw Exceeded(message: "the source image has more than \(maximumPixelCount) pixels")
        }
    }
}
