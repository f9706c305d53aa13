extension PixelBuffer {
    /// A deterministic, photo-like test image: smooth gradients, soft waves, hard edges and fine
    /// noise, so lossy codecs and resamplers see realistic content. The same arguments always give
    /// the same pixels. With `alpha`, opacity falls off radially to fully transparent corners.
    ///
    /// Used by the tests, the demo's origin server and the benchmarks.
    public static func samplePattern(width: Int, height: Int, alpha: Bool = false, seed: UInt32 = 1) -> PixelBuffer {
        PixelBuffer(width: width, height: height, hasAlpha: alpha) { out in
            var noise = seed &* 2_654_435_761 | 1
            let cx = Double(width) / 2, cy = Double(height) / 2
            let maxRadius = (cx * cx + cy * cy).squareRoot()
            for y in 0..<height {
                let fy = Double(y) / Double(max(height - 1, 1))
                for x in 0..<width {
                    let fx = Double(x) / Double(max(width - 1, 1))
                    noise ^= noise << 13
                    noise ^= noise >> 17
                    noise ^= noise << 5
                    let grain = Double(noise & 15) - 7.5
                    let wave = 40 * sin(fx * 9.4 + fy * 3.1) * cos(fy * 7.3)
                    let band = (x / max(width / 8, 1) + y / max(height / 6, 1)) % 2 == 0 ? 18.0 : -18.0
                    let index = (y * width + x) * 4
                    out[index] = clampByte(255 * fx * 0.8 + wave + band + grain)
                    out[index + 1] = clampByte(255 * fy * 0.7 + 30 - wave * 0.5 + grain)
                    out[index + 2] = clampByte(200 - 150 * fx * fy + band * 0.5 + grain)
                    if alpha {
                        let dx = Double(x) - cx, dy = Double(y) - cy
                        out[index + 3] = clampByte(255 * (1.15 - (dx * dx + dy * dy).squareRoot() / maxRadius * 1.3))
                    } else {
                        out[index + 3] = 255
                    }
                }
            }
        }
    }
}

@inline(__always)
func clampByte(_ value: Double) -> UInt8 {
    UInt8(max(0, min(255, value.rounded())))
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
