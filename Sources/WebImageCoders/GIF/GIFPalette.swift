/// Turns a frame's RGBA pixels into palette indices for the GIF encoder.
///
/// Pixels with alpha below 128 become one reserved transparent index; the others are treated as
/// opaque. A frame with at most 255 distinct opaque colours gets an exact palette (lossless). A frame
/// with more is reduced to 255 or 256 colours by giflib's median cut (`GifQuantizeBuffer`, 5 bits per
/// channel, no dithering), refined by two k-means steps on the 8-bit pixels (nearest entry per
/// 6-bit cell, then each entry moved to the mean of its pixels).
enum GIFPalette {
    /// Pixels whose alpha is below this are written as the transparent index.
    static let alphaThreshold: UInt8 = 128

    /// The indices and palette for `pixels`, at most `maximumColors` entries (2–256) with the transparent one.
    static func index(_ pixels: PixelBuffer, maximumColors: Int = 256) throws -> GIFIndexedFrame {
        let maximumColors = min(max(maximumColors, 2), 256)
        if let exact = exactPalette(pixels, maximumOpaque: min(255, maximumColors - (pixels.hasAlpha ? 1 : 0))) { return exact }
        return try quantizedPalette(pixels, maximumColors: maximumColors)
    }

    /// An exact palette, or nil when the frame has more than `maximumOpaque` (at most 255) distinct opaque colours.
    private static func exactPalette(_ pixels: PixelBuffer, maximumOpaque: Int) -> GIFIndexedFrame? {
        let count = pixels.width * pixels.height
        let slotCount = 1024, placeholder: UInt8 = 255
        // Open addressing on the colour with alpha forced to 255, so 0 marks an empty slot.
        var keys = [UInt32](repeating: 0, count: slotCount)
        var values = [UInt8](repeating: 0, count: slotCount)
        var colors: [UInt8] = []
        var hasTransparent = false
        var indices = [UInt8](repeating: 0, count: count)
        let fits = pixels.withUnsafeBytes { raw in
            indices.withUnsafeMutableBufferPointer { indices in
                var lastKey: UInt32 = 0, lastIndex: UInt8 = 0
                for i in 0..<count {
                    let p = 4 * i
                    guard raw[p + 3] >= alphaThreshold else {
                        hasTransparent = true
                        indices[i] = placeholder
                        continue
                    }
                    let key = UInt32(raw[p]) | UInt32(raw[p + 1]) << 8 | UInt32(raw[p + 2]) << 16 | 0xFF00_0000
                    if key == lastKey { indices[i] = lastIndex; continue }
                    var slot = Int((key &* 2_654_435_761) >> 22) & (slotCount - 1)
                    while keys[slot] != 0 && keys[slot] != key { slot = (slot + 1) & (slotCount - 1) }
                    if keys[slot] == 0 {
                        guard colors.count / 3 < maximumOpaque else { return false }
                        keys[slot] = key
                        values[slot] = UInt8(colors.count / 3)
                        colors += [raw[p], raw[p + 1], raw[p + 2]]
                    }
                    lastKey = key
                    lastIndex = values[slot]
                    indices[i] = lastIndex
                }
                return true
            }
        }
        guard fits else { return nil }
        var transparentIndex: Int?
        if hasTransparent {
            let index = colors.count / 3
            transparentIndex = index
            colors += [0, 0, 0]
            if index != Int(placeholder) {
                for i in 0..<count where indices[i] == placeholder { indices[i] = UInt8(index) }
            }
        }
        return GIFIndexedFrame(indices: indices, colors: colors, transparentIndex: transparentIndex)
    }

    /// A median-cut palette for a frame with many colours.
    private static func quantizedPalette(_ pixels: PixelBuffer, maximumColors: Int) throws -> GIFIndexedFrame {
        let count = pixels.width * pixels.height
        var red = [UInt8](repeating: 0, count: count)
        var green = red, blue = red
        var transparent = [Bool](repeating: false, count: count)
        var hasTransparent = false
        pixels.withUnsafeBytes { raw in
            // Transparent pixels take the colour of the last opaque one so they claim no palette entry.
            var fill: (UInt8, UInt8, UInt8) = (0, 0, 0)
            if let first = (0..<count).first(where: { raw[4 * $0 + 3] >= alphaThreshold }) {
                fill = (raw[4 * first], raw[4 * first + 1], raw[4 * first + 2])
            }
            for i in 0..<count {
                let p = 4 * i
                if raw[p + 3] >= alphaThreshold {
                    fill = (raw[p], raw[p + 1], raw[p + 2])
                } else {
                    transparent[i] = true
                    hasTransparent = true
                }
                (red[i], green[i], blue[i]) = fill
            }
        }
        var indices = [UInt8](repeating: 0, count: count)
        var colors = try GIFLib.quantize(red: &red, green: &green, blue: &blue, indices: &indices,
                                         colorCount: hasTransparent ? maximumColors - 1 : maximumColors)
        colors = meanColors(colors, indices: indices, red: red, green: green, blue: blue, transparent: transparent)
        for _ in 0..<refinementSteps {
            remapToNearest(colors, indices: &indices, red: red, green: green, blue: blue, transparent: transparent)
            colors = meanColors(colors, indices: indices, red: red, green: green, blue: blue, transparent: transparent)
        }
        var transparentIndex: Int?
        if hasTransparent {
            let index = colors.count / 3
            transparentIndex = index
            colors += [0, 0, 0]
            for i in 0..<count where transparent[i] { indices[i] = UInt8(index) }
        }
        return GIFIndexedFrame(indices: indices, colors: colors, transparentIndex: transparentIndex)
    }

    /// Lloyd (k-means) steps after the median cut: each remaps every pixel to its nearest entry and
    /// moves every entry to the mean of its pixels.
    static let refinementSteps = 2

    /// Each entry replaced by the mean of the opaque pixels mapped to it (unused entries keep their colour).
    private static func meanColors(
        _ colors: [UInt8], indices: [UInt8], red: [UInt8], green: [UInt8], blue: [UInt8], transparent: [Bool]
    ) -> [UInt8] {
        var sums = [Int](repeating: 0, count: 256 * 4)
        for i in 0..<indices.count where !transparent[i] {
            let s = 4 * Int(indices[i])
            sums[s] += Int(red[i])
            sums[s + 1] += Int(green[i])
            sums[s + 2] += Int(blue[i])
            sums[s + 3] += 1
        }
        var result = colors
        for entry in 0..<colors.count / 3 where sums[4 * entry + 3] > 0 {
            let n = sums[4 * entry + 3]
            for channel in 0..<3 {
                result[3 * entry + channel] = UInt8((sums[4 * entry + channel] + n / 2) / n)
            }
        }
        return result
    }

    /// Maps each opaque pixel to the nearest palette entry, searched once per 6-bit-per-channel cell
    /// (at the cell's centre), so the cost grows with the distinct cells, not the pixels.
    private static func remapToNearest(
        _ colors: [UInt8], indices: inout [UInt8], red: [UInt8], green: [UInt8], blue: [UInt8], transparent: [Bool]
    ) {
        let entryCount = colors.count / 3
        var nearest = [Int16](repeating: -1, count: 1 << 18)
        for i in 0..<indices.count where !transparent[i] {
            let r = Int(red[i] >> 2), g = Int(green[i] >> 2), b = Int(blue[i] >> 2)
            let cell = r << 12 | g << 6 | b
            if nearest[cell] < 0 {
                let cr = r << 2 | 2, cg = g << 2 | 2, cb = b << 2 | 2
                var best = 0, bestDistance = Int.max
                for entry in 0..<entryCount {
                    let dr = Int(colors[3 * entry]) - cr, dg = Int(colors[3 * entry + 1]) - cg, db = Int(colors[3 * entry + 2]) - cb
                    let distance = dr * dr + dg * dg + db * db
                    if distance < bestDistance { bestDistance = distance; best = entry }
                }
                nearest[cell] = Int16(best)
            }
            indices[i] = UInt8(nearest[cell])
        }
    }
}
