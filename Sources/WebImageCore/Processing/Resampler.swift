import CWebImageKernels

/// Resizes pixel buffers with a separable filter (Lanczos-3 by default).
///
/// Images with alpha are filtered on premultiplied alpha in `Float`, so transparent pixels never bleed
/// their colour into visible edges, and the result is converted back to straight alpha. Opaque images
/// (every JPEG) are filtered in 16-bit fixed point, as libvips and Pillow do: integer weights, sums of
/// 16-bit products, which is faster; ``FixedPointPlan`` proves each such result within one level of the
/// float path on every channel, and the float path runs where it cannot (extreme reductions). Each pass
/// precomputes one weight table per output column or row and walks memory in order; nothing is
/// allocated per pixel.
///
/// ```swift
/// let thumbnail = Resampler.resize(image.pixels, to: PixelSize(width: 320, height: 213))
/// ```
public enum Resampler {
    /// Returns `buffer` resampled to `size` with `filter`; the same size returns `buffer` unchanged.
    ///
    /// Runs through `StreamingResampler` row by row, so besides the output it holds only a band of
    /// source rows (the filter's support times the scale), never a full-height intermediate.
    public static func resize(_ buffer: PixelBuffer, to size: PixelSize, filter: ResamplingFilter = .lanczos3) -> PixelBuffer {
        resize(buffer, to: size, filter: filter, allowingFixedPoint: true)
    }

    /// ``resize(_:to:filter:)``, with the fixed-point path for opaque images allowed or not (tests and
    /// benchmarks compare the two).
    package static func resize(_ buffer: PixelBuffer, to size: PixelSize, filter: ResamplingFilter,
                               allowingFixedPoint: Bool) -> PixelBuffer {
        precondition(size.width > 0 && size.height > 0, "Resampler: the target size must be positive")
        guard size != buffer.size, buffer.width > 0, buffer.height > 0 else { return buffer }
        let resampler = StreamingResampler(from: buffer.size, to: size, hasAlpha: buffer.hasAlpha, filter: filter,
                                           allowingFixedPoint: allowingFixedPoint)
        return PixelBuffer(width: size.width, height: size.height, hasAlpha: buffer.hasAlpha) { output in
            buffer.withUnsafeBytes { source in
                resampler.push(rows: source, count: buffer.height, stride: buffer.bytesPerRow, into: output)
            }
        }
    }

    /// The size that fits `size` inside `bounds` keeping its aspect ratio, never smaller than 1×1.
    public static func aspectFitSize(_ size: PixelSize, in bounds: PixelSize) -> PixelSize {
        let scale = min(Double(bounds.width) / Double(size.width), Double(bounds.height) / Double(size.height))
        return PixelSize(width: max(1, Int((Double(size.width) * scale).rounded())),
                         height: max(1, Int((Double(size.height) * scale).rounded())))
    }

    /// Writes one filtered pixel as straight RGBA8 at `output`: un-premultiplied when `premultiplied`,
    /// else with alpha 255 (the source was opaque). Channels are clamped to 0…255 and rounded to the
    /// nearest byte (ties to even): `wik_store_rgba8`, which ``StreamingResampler`` runs on whole rows.
    static func store(_ pixel: SIMD4<Float>, premultiplied: Bool, to output: UnsafeMutablePointer<UInt8>) {
        withUnsafePointer(to: pixel) { pointer in
            pointer.withMemoryRebound(to: Float.self, capacity: 4) { wik_store_rgba8($0, 1, premultiplied ? 1 : 0, output) }
        }
    }
}

/// For each output index, the first source index it reads and the normalised weights of the source
/// indices from there on.
struct WeightTable: Sendable {
    /// The tables made last, by source length, target length and filter: a server resizing many
    /// images to the same few sizes computes each table once (they cost a `sin` per tap).
    private static let recent = LockedValue(RecentTables())

    private struct RecentTables {
        static let capacity = 32
        /// Larger tables (huge images) are not kept: at most 32 × 512 KiB of weights stay in memory (each
        /// weight as a `Float` and as two `Int16`s, for the fixed-point passes).
        static let largestKeptWeightCount = 65_536
        var entries: [(key: Key, table: WeightTable)] = []
    }

    private struct Key: Equatable {
        var source: Int, target: Int, filter: ResamplingFilter
    }

    /// The table from `source` to `target` with `filter`, made now or reused from a recent resize.
    static func shared(source: Int, target: Int, filter: ResamplingFilter) -> WeightTable {
        let key = Key(source: source, target: target, filter: filter)
        if let table = recent.withLock({ tables in tables.entries.first { $0.key == key }?.table }) {
            return table
        }
        let table = WeightTable(source: source, target: target, filter: filter)
        guard table.weights.count <= RecentTables.largestKeptWeightCount else { return table }
        recent.withLock { tables in
            if tables.entries.count == RecentTables.capacity { tables.entries.removeFirst() }
            tables.entries.append((key, table))
        }
        return table
    }

    /// The source length the table reads from: every tap's index is below it.
    private let sourceLength: Int
    private var firsts: [Int] = []
    private var counts: [Int] = []
    private var weights: [Float] = []
    private var offsets: [Int] = []
    /// The weights as integers for a fixed-point pass over bytes (the first pass): nil if none fits.
    private(set) var fixedForBytes: FixedPointTaps?
    /// The weights as integers for a fixed-point pass over 16-bit intermediates (the second pass): nil if none fits.
    private(set) var fixedForWords: FixedPointTaps?

    init(source: Int, target: Int, filter: ResamplingFilter) {
        sourceLength = source
        let scale = Double(source) / Double(target)
        let stretch = max(scale, 1) // widen the kernel when shrinking, so every source pixel counts
        let support = filter.radius * stretch
        firsts.reserveCapacity(target)
        for index in 0..<target {
            let center = (Double(index) + 0.5) * scale
            let first = max(0, Int((center - support).rounded(.down)))
            let last = min(source - 1, Int((center + support).rounded(.up)))
            var row = [Double]()
            for sourceIndex in first...max(first, last) {
                row.append(filter.weight((Double(sourceIndex) + 0.5 - center) / stretch))
            }
            var total = row.reduce(0, +)
            if total == 0 { // no tap landed inside the kernel: take the nearest source pixel
                row = Array(repeating: 0, count: row.count)
                row[min(max(Int(center) - first, 0), row.count - 1)] = 1
                total = 1
            }
            // Trim zero weights at both ends to save work.
            var start = 0, end = row.count
            while start < end - 1, row[start] == 0 { start += 1 }
            while end - 1 > start, row[end - 1] == 0 { end -= 1 }
            offsets.append(weights.count)
            firsts.append(first + start)
            counts.append(end - start)
            weights.append(contentsOf: row[start..<end].map { Float($0 / total) })
        }
        fixedForBytes = FixedPointTaps(weights: weights, offsets: offsets, counts: counts, inputMagnitude: Int(UInt8.max))
        fixedForWords = FixedPointTaps(weights: weights, offsets: offsets, counts: counts, inputMagnitude: -Int(Int16.min))
    }

    func taps(for index: Int) -> (first: Int, weights: ArraySlice<Float>) {
        (firsts[index], weights[offsets[index]..<(offsets[index] + counts[index])])
    }

    /// One horizontal pass over a row of premultiplied pixels (`wik_filter_row`).
    func apply(_ row: UnsafeBufferPointer<SIMD4<Float>>, into output: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        precondition(output.count <= firsts.count, "WeightTable: more outputs than the table has")
        precondition(row.count >= sourceLength, "WeightTable: the row is shorter than the table's source")
        row.withMemoryRebound(to: Float.self) { row in
            output.withMemoryRebound(to: Float.self) { output in
                wik_filter_row(row.baseAddress, firsts, counts, offsets, weights, output.count / 4, output.baseAddress)
            }
        }
    }

    /// Whether a fixed-point pass with `taps` (this table's) and `shift` returns its input unchanged: the table maps
    /// a length to itself and each output's only non-zero weight is `2^shift` at its own index (the other weights
    /// of a same-length table round to 0).
    func copiesUnchanged(_ taps: FixedPointTaps, shift: Int) -> Bool {
        guard sourceLength == firsts.count, taps.weights.count == weights.count, shift == taps.precision else { return false }
        let one = 1 << shift
        return firsts.indices.allSatisfy { index in
            (0..<counts[index]).allSatisfy { tap in
                let weight = Int(taps.weights[offsets[index] + tap])
                return firsts[index] + tap == index ? weight == one : weight == 0
            }
        }
    }

    /// One horizontal pass in fixed point (`wik_fixed_row`) over a row of 16-bit RGBA values with `taps`
    /// (this table's ``fixedForBytes`` or ``fixedForWords``), each sum shifted right by `shift`.
    func apply(_ taps: FixedPointTaps, shift: Int, to row: UnsafeBufferPointer<Int16>, into output: UnsafeMutableBufferPointer<Int16>) {
        precondition(output.count / 4 <= firsts.count, "WeightTable: more outputs than the table has")
        precondition(row.count >= sourceLength * 4, "WeightTable: the row is shorter than the table's source")
        precondition(taps.weights.count == weights.count, "WeightTable: the integer taps are another table's")
        wik_fixed_row(row.baseAddress, firsts, counts, offsets, taps.weights, output.count / 4, Int32(shift), output.baseAddress)
    }
}
