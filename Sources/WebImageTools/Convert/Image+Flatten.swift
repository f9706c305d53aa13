package import WebImageKit

extension Image {
    /// The image composited onto an opaque `background`, for formats without alpha (JPEG); an opaque
    /// image is returned as it is.
    package func flattened(onto background: RGBA) -> Image {
        guard hasAlpha else { return self }
        let flattenedFrames = frames.map { ImageFrame(pixels: $0.pixels.flattened(onto: background), duration: $0.duration) }
        return Image(frames: flattenedFrames, format: format, scale: scale, orientation: orientation, loopCount: loopCount)
    }
}

extension PixelBuffer {
    /// Straight-alpha pixels composited onto an opaque colour (its own alpha is ignored).
    func flattened(onto background: RGBA) -> PixelBuffer {
        let source = bytes
        let under = [UInt32(background.red), UInt32(background.green), UInt32(background.blue)]
        return PixelBuffer(width: width, height: height, hasAlpha: false) { out in
            source.withUnsafeBufferPointer { input in
                for pixel in stride(from: 0, to: input.count, by: 4) {
                    let alpha = UInt32(input[pixel + 3])
                    for channel in 0..<3 {
                        let mixed = UInt32(input[pixel + channel]) * alpha + under[channel] * (255 - alpha)
                        out[pixel + channel] = UInt8((mixed + 127) / 255)
                    }
                    out[pixel + 3] = 255
                }
            }
        }
    }
}
