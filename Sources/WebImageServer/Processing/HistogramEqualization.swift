import WebImageKit

/// thumbor's `equalize()`: each colour channel mapped through its cumulative histogram,
/// `(cdf(c) − cdfMin) / (pixels − cdfMin) × 255` in `Float`, truncated; alpha kept.
///
/// It keeps thumbor's arithmetic exactly, including two quirks of its C code: the search for each channel's
/// `cdfMin` stops at the first level where any channel has pixels, so a channel whose darkest level is higher
/// keeps a `cdfMin` of 0; and a channel of one level whose `cdfMin` was found divides 0 by 0, which x86 builds
/// of thumbor store as 0.
struct HistogramEqualization: Sendable, Hashable {
    /// The same pixels, equalised.
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        let area = pixels.width * pixels.height
        guard area > 0 else { return pixels }
        var histograms = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 3)
        pixels.withUnsafeBytes { bytes in
            for index in stride(from: 0, to: bytes.count, by: 4) {
                for channel in 0..<3 { histograms[channel][Int(bytes[index + channel])] += 1 }
            }
        }
        let cumulative = histograms.map { histogram in
            var sum = 0
            return histogram.map { count in
                sum += count
                return count > 0 ? sum : 0
            }
        }
        var minimums = [0, 0, 0]
        var level = 0
        while minimums.allSatisfy({ $0 == 0 }), level < 256 {
            for channel in 0..<3 where cumulative[channel][level] != 0 { minimums[channel] = cumulative[channel][level] }
            level += 1
        }
        let tables = (0..<3).map { channel in
            let minimum = minimums[channel]
            return cumulative[channel].map { frequency -> UInt8 in
                let value = (Float(frequency) - Float(minimum)) / Float(area - minimum) * 255
                return value.isNaN ? 0 : UInt8(min(max(value, 0), 255).rounded(.towardZero))
            }
        }
        return pixels.mappingChannels(red: tables[0], green: tables[1], blue: tables[2])
    }
}
