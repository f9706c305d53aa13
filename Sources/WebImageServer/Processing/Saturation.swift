import WebImageKit

/// thumbor's `saturation(factor)`: each pixel's colour moved away from (factor > 1) or towards (factor < 1) its
/// perceived brightness `p = √(0.299 r² + 0.587 g² + 0.114 b²)`, as `p + (c − p) × factor` in `Float`,
/// truncated and clamped (thumbor's C arithmetic); alpha kept.
struct Saturation: Sendable, Hashable {
    /// The factor: 1 keeps the colours, 0 makes them grey; finite.
    let factor: Double

    /// The same pixels with the saturation changed.
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        let change = Float(factor)
        guard change != 1 else { return pixels }
        return pixels.mappingColours { red, green, blue in
            let p = Float((Double(red * red) * 0.299 + Double(green * green) * 0.587 + Double(blue * blue) * 0.114).squareRoot())
            func moved(_ channel: Int) -> Int {
                let value = p + (Float(channel) - p) * change
                return value.isNaN ? 0 : Int(min(max(value, -1), 256))
            }
            return (moved(red), moved(green), moved(blue))
        }
    }
}
