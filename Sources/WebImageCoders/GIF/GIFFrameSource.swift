import Foundation
import WebImageCore

/// A GIF decoded frame by frame: the encoded bytes, a scan's frame count and delays, and one canvas.
///
/// Creating it walks every record once without decoding pixels (LZW data is skipped), so a file cut
/// short or structurally broken fails at once, with the errors of ``GIFCoder/decode(_:options:)``.
/// ``frame(at:)`` continues the record walk of ``GIFLib`` (the code the full decode runs) from the last
/// frame it produced, or from the start for an earlier frame, so every frame equals the full decode's.
final class GIFFrameSource: AnimatedImageFrameSource {
    private let data: Data
    private let options: ImageDecodingOptions
    private let durations: [Duration]
    private let sourceSize: PixelSize
    let loopCount: Int
    let pixelSize: PixelSize
    /// The walk that produced the latest frame, nil before the first and after a failure.
    private let cursor = LockedValue<GIFWalk?>(nil)

    init(data: Data, options: ImageDecodingOptions) throws {
        var options = options
        options.firstFrameOnly = false
        var scan: GIFWalk?
        try GIFLib.continueWalk(&scan, over: data, options: options, stopAtEnd: false, output: .durationsOnly)
        guard let scan, scan.frameCount > 0 else {
            throw ImageCodingError(.corruptData, format: .gif, "the file holds no image")
        }
        self.data = data
        self.options = options
        // As in a full decode: a single frame is a still image.
        durations = scan.frameCount == 1 ? [.zero] : scan.durations
        loopCount = scan.loopCount
        sourceSize = PixelSize(width: scan.canvas.width, height: scan.canvas.height)
        pixelSize = options.finishedFrameSize(for: sourceSize, orientation: .up)
    }

    var frameCount: Int { durations.count }

    func duration(ofFrame index: Int) -> Duration {
        durations.indices.contains(index) ? durations[index] : .zero
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard durations.indices.contains(index) else {
            throw ImageCodingError(.corruptData, format: .gif, "frame \(index) of \(frameCount) does not exist")
        }
        let pixels = try cursor.withLock { walk throws -> PixelBuffer in
            if let latest = walk, latest.frameCount == index + 1, let frame = latest.frames.last {
                return frame.pixels
            }
            if let latest = walk, latest.frameCount > index { walk = nil }
            do {
                try GIFLib.continueWalk(&walk, over: data, options: options, stopAtEnd: false, output: .latestFrame, frameLimit: index + 1)
            } catch {
                walk = nil
                throw error
            }
            guard let latest = walk, latest.frameCount == index + 1, let frame = latest.frames.last else {
                walk = nil
                throw ImageCodingError(.corruptData, format: .gif, "frame \(index + 1) is missing")
            }
            return frame.pixels
        }
        return options.finishFrame(pixels, orientation: .up)
    }
}
