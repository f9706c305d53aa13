extension PixelBuffer {
    /// The pixels turned upright for `orientation`: rotated and/or mirrored so that a viewer that
    /// ignores orientation shows them correctly. Exact (no resampling); `.up` returns `self`.
    public func applyingOrientation(_ orientation: ImageOrientation) -> PixelBuffer {
        guard orientation != .up else { return self }
        let (outWidth, outHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        let (w, h) = (width, height)
        // For each output pixel, the source column and row.
        let source: (Int, Int) -> (Int, Int) = switch orientation {
        case .up: { x, y in (x, y) }
        case .upMirrored: { x, y in (w - 1 - x, y) }
        case .down: { x, y in (w - 1 - x, h - 1 - y) }
        case .downMirrored: { x, y in (x, h - 1 - y) }
        case .leftMirrored: { x, y in (y, x) }
        case .right: { x, y in (y, h - 1 - x) }
        case .rightMirrored: { x, y in (w - 1 - y, h - 1 - x) }
        case .left: { x, y in (w - 1 - y, x) }
        }
        let input = bytes
        let result = PixelBuffer(width: outWidth, height: outHeight, hasAlpha: hasAlpha) { output in
            input.withUnsafeBytes { raw in
                let inPixels = raw.bindMemory(to: UInt32.self)
                UnsafeMutableRawBufferPointer(output).withMemoryRebound(to: UInt32.self) { outPixels in
                    for y in 0..<outHeight {
                        let row = y * outWidth
                        for x in 0..<outWidth {
                            let (sx, sy) = source(x, y)
                            outPixels[row + x] = inPixels[sy * w + sx]
                        }
                    }
                }
            }
        }
        return result
    }
}

extension Image {
    /// The image with its pixels turned upright (every frame) and orientation `.up`.
    public func normalizedOrientation() -> Image {
        guard orientation != .up else { return self }
        let turned = frames.map { ImageFrame(pixels: $0.pixels.applyingOrientation(orientation), duration: $0.duration) }
        return Image(frames: turned, format: format, scale: scale, orientation: .up, loopCount: loopCount, data: data,
                     iccProfile: iccProfile, metadata: metadata, issues: issues)
    }
}
