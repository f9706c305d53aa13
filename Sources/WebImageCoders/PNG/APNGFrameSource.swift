import Foundation
import WebImageCore

/// An animated PNG decoded frame by frame: the encoded bytes, the parsed chunk layout and one canvas.
///
/// Creating it parses and checks every chunk (CRCs, sequence numbers, frame rectangles, IEND), as
/// ``PNGCoder/decode(_:options:)`` does, without decoding any image data. ``frame(at:)`` draws frames
/// onto the canvas with ``APNGDecoder/draw(_:isFirst:of:in:onto:maximumPixelCount:)`` (the step the
/// full decode runs) from the frame after the latest one, or from the start for an earlier frame.
final class APNGFrameSource: AnimatedImageFrameSource {
    /// The canvas and how many frames are drawn on it.
    private struct Cursor {
        var canvas: APNGCanvas
        var drawnFrames = 0
        var latest: PixelBuffer?
    }

    private let data: Data
    private let animation: APNGDecoder.Animation
    private let options: ImageDecodingOptions
    private let sourceOrientation: ImageOrientation
    let pixelSize: PixelSize
    private let cursor: LockedValue<Cursor>

    /// Parses `data`, or returns nil when it holds no animation frame (decode it as a still PNG).
    init?(data: Data, options: ImageDecodingOptions) throws {
        typealias Parsed = (animation: APNGDecoder.Animation, orientation: ImageOrientation)
        let parsed = try data.withUnsafeBytes { bytes throws -> Parsed in
            let animation = try APNGDecoder.parse(bytes, maximumPixelCount: options.maximumPixelCount)
            return (animation, APNGDecoder.orientation(of: animation, in: bytes))
        }
        guard !parsed.animation.frames.isEmpty else { return nil }
        self.data = data
        self.animation = parsed.animation
        self.options = options
        sourceOrientation = parsed.orientation
        let canvas = APNGCanvas(width: animation.canvasWidth, height: animation.canvasHeight)
        pixelSize = options.finishedFrameSize(for: PixelSize(width: canvas.width, height: canvas.height), orientation: sourceOrientation)
        cursor = LockedValue(Cursor(canvas: canvas))
    }

    var frameCount: Int { animation.frames.count }
    var loopCount: Int { animation.playCount }
    var orientation: ImageOrientation { options.applyOrientation ? .up : sourceOrientation }

    func duration(ofFrame index: Int) -> Duration {
        // As in a full decode: a single frame is a still image.
        guard frameCount > 1, animation.frames.indices.contains(index) else { return .zero }
        return animation.frames[index].control.duration
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard animation.frames.indices.contains(index) else {
            throw ImageCodingError(.corruptData, format: .png, "frame \(index) of \(frameCount) does not exist")
        }
        let pixels = try cursor.withLock { cursor throws -> PixelBuffer in
            if cursor.drawnFrames == index + 1, let latest = cursor.latest { return latest }
            if cursor.drawnFrames > index {
                cursor = Cursor(canvas: APNGCanvas(width: animation.canvasWidth, height: animation.canvasHeight))
            }
            try data.withUnsafeBytes { bytes in
                while cursor.drawnFrames <= index {
                    let next = cursor.drawnFrames
                    cursor.latest = nil
                    do {
                        try APNGDecoder.draw(animation.frames[next], isFirst: next == 0, of: animation, in: bytes,
                                             onto: &cursor.canvas, maximumPixelCount: options.maximumPixelCount)
                    } catch {
                        // The canvas holds part of a frame: start over next time.
                        cursor = Cursor(canvas: APNGCanvas(width: animation.canvasWidth, height: animation.canvasHeight))
                        throw error
                    }
                    cursor.drawnFrames = next + 1
                }
            }
            let latest = cursor.canvas.snapshot()
            cursor.latest = latest
            return latest
        }
        return options.finishFrame(pixels, orientation: sourceOrientation)
    }
}
