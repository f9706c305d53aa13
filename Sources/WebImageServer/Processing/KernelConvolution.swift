import WebImageKit

/// thumbor's `convolution(items, columns, normalize)` (and the passes of its blur): each pixel becomes the sum
/// of its neighbours times the kernel's weights, the kernel centred on it, pixels beyond an edge taken from
/// the edge; sums are truncated and clamped to 0…255, as thumbor's C does.
///
/// An image without alpha is convolved as thumbor convolves an RGB image: colour only, alpha stays opaque.
/// An image with alpha is convolved on premultiplied colour, as the rest of the transformer filters, so that
/// transparent pixels do not bleed their colour (thumbor convolves straight RGBA); alpha is convolved too.
/// A sum is truncated after adding 10⁻⁹, so that a weighted sum that is a whole number in exact arithmetic
/// (a flat area under a normalised kernel) is not stored one level lower (thumbor's can be, up to one level).
/// The cost is the kernel's size per pixel: callers bound it (a URL's kernel is at most 9 × 9).
struct KernelConvolution: Sendable, Hashable {
    /// The weights, row by row.
    let weights: [Double]
    /// The number of columns, odd.
    let columns: Int
    /// The number of rows, odd.
    let rows: Int

    /// A URL's kernel, its weights divided by their sum when it asks for it and the sum is not 0.
    init(_ kernel: PixelFilter.Convolution) {
        let sum = kernel.items.reduce(0, +)
        let normalizes = kernel.normalize && sum != 0
        self.init(weights: normalizes ? kernel.items.map { $0 / sum } : kernel.items, columns: kernel.columns, rows: kernel.rows)
    }

    /// A kernel of `columns` × `rows` weights.
    init(weights: [Double], columns: Int, rows: Int) {
        precondition(columns > 0 && rows > 0 && weights.count == columns * rows, "KernelConvolution: the weights do not fill the kernel")
        self.weights = weights
        self.columns = columns
        self.rows = rows
    }

    /// A small amount added to sums before truncating them, more than their rounding error.
    private static let rounding = 1e-9

    /// The convolved pixels, of the same size.
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        let width = pixels.width, height = pixels.height
        guard width > 0, height > 0 else { return pixels }
        let middleX = columns / 2, middleY = rows / 2
        let premultiplies = pixels.hasAlpha
        return PixelBuffer(width: width, height: height, hasAlpha: pixels.hasAlpha) { output in
            pixels.withUnsafeBytes { source in
                weights.withUnsafeBufferPointer { weights in
                    for y in 0..<height {
                        for x in 0..<width {
                            var sum = SIMD4<Double>(repeating: 0)
                            var tap = 0
                            for row in (y - middleY)...(y + middleY) {
                                let rowStart = min(max(row, 0), height - 1) * width
                                for column in (x - middleX)...(x + middleX) {
                                    let index = (rowStart + min(max(column, 0), width - 1)) * 4
                                    var pixel = SIMD4<Double>(
                                        Double(source[index]), Double(source[index + 1]), Double(source[index + 2]), Double(source[index + 3]))
                                    if premultiplies {
                                        let alpha = pixel[3] / 255
                                        pixel = SIMD4(pixel[0] * alpha, pixel[1] * alpha, pixel[2] * alpha, pixel[3])
                                    }
                                    sum += pixel * weights[tap]
                                    tap += 1
                                }
                            }
                            store(sum, premultiplied: premultiplies, into: output, at: (y * width + x) * 4)
                        }
                    }
                }
            }
        }
    }

    /// Writes one pixel's sums as straight RGBA8: truncated; divided by alpha when premultiplied; opaque otherwise.
    private func store(_ sum: SIMD4<Double>, premultiplied: Bool, into output: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        guard premultiplied else {
            for channel in 0..<3 { output[offset + channel] = UInt8(truncatingColour: sum[channel] + Self.rounding) }
            output[offset + 3] = 255
            return
        }
        let alpha = sum[3]
        for channel in 0..<3 {
            output[offset + channel] = alpha > 0 ? UInt8(truncatingColour: sum[channel] * 255 / alpha + Self.rounding) : 0
        }
        output[offset + 3] = UInt8(truncatingColour: alpha + Self.rounding)
    }
}
