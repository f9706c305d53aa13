import Foundation
import WebImageCore

/// An animated WebP decoded frame by frame through libwebp's sequential animation decoder, which keeps
/// its own copy of the encoded bytes and one canvas (``WebPAnimationCodec/FrameDecoder``, the machinery
/// of the full decode too).
///
/// Creating it checks the container and the canvas as ``WebPCoder/decode(_:options:)`` does and lets
/// libwebp index the frames (a file cut short fails at once). ``frame(at:)`` decodes on from the latest
/// frame, or rewinds to the first for an earlier one.
final class WebPFrameSource: AnimatedImageFrameSource {
    /// The decoder and the frame it produced last.
    private struct Cursor {
        var decoder: WebPAnimationCodec.FrameDecoder
        var latest: PixelBuffer?
    }

    private let options: ImageDecodingOptions
    private let durations: [Duration]
    private let sourceOrientation: ImageOrientation
    let loopCount: Int
    let pixelSize: PixelSize
    private let cursor: LockedValue<Cursor>

    /// Opens an animation whose `container` says it is one.
    init(data: Data, container: WebPContainer, options: ImageDecodingOptions) throws(ImageCodingError) {
        typealias Opened = (decoder: WebPAnimationCodec.FrameDecoder, orientation: ImageOrientation)
        let opened = try WebPCoder().withBytes(of: data) { bytes throws(ImageCodingError) -> Opened in
            let (features, orientation) = try WebPCoder.header(bytes, container: container, options: options)
            guard features.hasAnimation else {
                throw ImageCodingError(.corruptData, format: .webp, "the VP8X header announces an animation the file does not hold")
            }
            return (try WebPAnimationCodec.FrameDecoder(copying: bytes, features: features), orientation)
        }
        let decoder = opened.decoder
        self.options = options
        // As in a full decode: a single frame is a still image that does not loop.
        durations = decoder.frameCount == 1 ? [.zero] : decoder.durations
        loopCount = decoder.frameCount == 1 ? 0 : decoder.loopCount
        sourceOrientation = opened.orientation
        pixelSize = options.finishedFrameSize(for: PixelSize(width: decoder.width, height: decoder.height), orientation: opened.orientation)
        cursor = LockedValue(Cursor(decoder: decoder))
    }

    var frameCount: Int { durations.count }
    var orientation: ImageOrientation { options.applyOrientation ? .up : sourceOrientation }

    func duration(ofFrame index: Int) -> Duration {
        durations.indices.contains(index) ? durations[index] : .zero
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard durations.indices.contains(index) else {
            throw ImageCodingError(.corruptData, format: .webp, "frame \(index) of \(frameCount) does not exist")
        }
        let pixels = try cursor.withLock { cursor throws(ImageCodingError) -> PixelBuffer in
            let decoder = cursor.decoder
            if decoder.nextIndex == index + 1, let latest = cursor.latest { return latest }
            cursor.latest = nil
            if decoder.nextIndex > index { decoder.reset() }
            do throws(ImageCodingError) {
                while decoder.nextIndex < index { try decoder.skipNext() }
                let latest = try decoder.decodeNext()
                cursor.latest = latest
                return latest
            } catch {
                decoder.reset()
                throw error
            }
        }
        return options.finishFrame(pixels, orientation: sourceOrientation)
    }
}
