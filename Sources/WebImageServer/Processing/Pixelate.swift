import WebImageKit

/// imgproxy's `pixelate`: the image as blocks of `size` × `size` pixels, each the average of the pixels it
/// covers (edge blocks are smaller), alpha included.
struct Pixelate: Sendable {
    let size: Int

    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        let width = pixels.width, height = pixels.height, size = max(1, size)
        guard size > 1, width > 0, height > 0 else { return pixels }
        var bytes = pixels.bytes
        var top = 0
        while top < height {
            let bottom = min(top + size, height)
            var left = 0
            while left < width {
                let right = min(left + size, width)
                var sums = (0, 0, 0, 0)
                for y in top..<bottom {
                    for x in left..<right {
                        let i = (y * width + x) * 4
                        sums.0 += Int(bytes[i]); sums.1 += Int(bytes[i + 1]); sums.2 += Int(bytes[i + 2]); sums.3 += Int(bytes[i + 3])
                    }
                }
                let count = (bottom - top) * (right - left)
                let average = [sums.0, sums.1, sums.2, sums.3].map { UInt8(($0 + count / 2) / count) }
                for y in top..<bottom {
                    for x in left..<right {
                        let i = (y * width + x) * 4
                        bytes[i] = average[0]; bytes[i + 1] = average[1]; bytes[i + 2] = average[2]; bytes[i + 3] = average[3]
                    }
                }
                left = right
            }
            top = bottom
        }
        return PixelBuffer(width: width, height: height, hasAlpha: pixels.hasAlpha, bytes: bytes)
    }
}
