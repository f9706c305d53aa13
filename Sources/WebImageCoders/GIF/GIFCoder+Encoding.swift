public import Foundation
import WebImageCore

extension GIFCoder {
    /// Encodes every frame (only the first with `ImageEncodingOptions.firstFrameOnly`) as a
    /// full-canvas GIF89a frame with its own colour table: exact when the frame has at most 255 opaque colours,
    /// otherwise giflib's median cut; pixels with alpha below 128 become the transparent index.
    ///
    /// An animation gets a NETSCAPE2.0 extension holding `Image.loopCount` (0 = forever), except
    /// when the loop count is 1, which is written as no extension (play once). Delays are written in
    /// centiseconds, rounded, at least 2. A frame followed by one that may have transparent pixels
    /// is disposed "to background" so the next frame starts from a clear canvas; otherwise "none". The pixels are written upright.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        guard format == .gif else {
            throw ImageCodingError(.unsupportedFormat, format: format, "GIFCoder writes only GIF")
        }
        let upright = image.orientation == .up ? image : image.normalizedOrientation()
        let frames = options.firstFrameOnly ? [upright.frames[0]] : upright.frames
        let size = upright.pixelSize
        guard size.width > 0, size.height > 0, size.width <= 0xFFFF, size.height <= 0xFFFF else {
            throw ImageCodingError(.encodingFailed, format: .gif, "GIF cannot hold \(size.width)×\(size.height) pixels")
        }
        let animated = frames.count > 1
        return try GIFLib.encode(
            width: size.width, height: size.height,
            loopCount: animated && upright.loopCount != 1 ? upright.loopCount : nil,
            frameCount: frames.count
        ) { index in
            var indexed = try GIFPalette.index(frames[index].pixels)
            if animated {
                indexed.delayCentiseconds = Self.centiseconds(frames[index].duration)
                // The next frame (frame 0 when the animation loops) is drawn on a cleared canvas when it
                // may have transparent pixels, so they show as transparent, not as this frame.
                indexed.disposal = frames[(index + 1) % frames.count].pixels.hasAlpha ? 2 : 1
            }
            return indexed
        }
    }

    /// A duration in whole centiseconds, rounded, at least 2 (browsers play 0 or 1 as 100 ms), at most 65535.
    static func centiseconds(_ duration: Duration) -> Int {
        // Rounding whole milliseconds gives the same centiseconds: the halfway points are whole milliseconds.
        let milliseconds = min(max(duration, .zero), .seconds(1000)).milliseconds
        return Int(min(max((milliseconds + 5) / 10, 2), 65535))
    }
}
