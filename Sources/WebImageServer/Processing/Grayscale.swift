import WebImageKit

/// thumbor's `grayscale()`: Pillow's conversion to `L` (or `LA`), the ITU-R 601 luma
/// `(19595 r + 38470 g + 7471 b + 32768) >> 16` in each colour channel; alpha kept.
struct Grayscale: Sendable, Hashable {
    /// The same pixels in grey.
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        pixels.mappingColours { red, green, blue in
            let luma = (red * 19595 + green * 38470 + blue * 7471 + 0x8000) >> 16
            return (luma, luma, luma)
        }
    }
}
