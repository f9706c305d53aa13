import CWebImageKernels

/// Resamples an image whose rows arrive one at a time, top to bottom, into an output buffer, holding
/// only a band of source rows: what a streaming decoder (libjpeg scanlines, libpng rows) feeds, and
/// what ``Resampler/resize(_:to:filter:)`` runs on for an image already in memory.
///
/// Each source row is kept as it arrives, as bytes, in a ring of ``ringRowCount`` rows: the most source
/// rows any one output row reads, set by the filter's support times the vertical scale. As soon as the
/// last source row an output row needs has arrived, that output row is made: its source rows are
/// combined vertically (premultiplied `Float`, at the source width), that row is filtered horizontally to
/// the target width, and the result is written as straight RGBA8. The same weight tables and the same
/// order of arithmetic as a full-height two-pass resample (vertical pass first) give bit-identical
/// results; memory is `ringRowCount` rows of source bytes plus a source-width and a target-width row of
/// float pixels, whatever the image's height.
///
/// Not thread-safe: one decoder feeds one resampler.
package final class StreamingResampler {
    /// The size of the rows pushed in.
    package let sourceSize: PixelSize
    /// The size of the output.
    package let targetSize: PixelSize
    /// Rows of the ring of source rows.
    package let ringRowCount: Int
    /// Whether pixels are premultiplied while filtering (the source has alpha).
    private let premultiply: Bool
    private let horizontal: WeightTable
    private let vertical: WeightTable
    /// For each output row, the source row after whose arrival it can be written.
    private let readyAfter: [Int]
    /// The last ``ringRowCount`` source rows, RGBA8, `4 × sourceSize.width` bytes each.
    private let ring: UnsafeMutableBufferPointer<UInt8>
    /// The start of each source row an output row reads, in tap order.
    private let tapRows: UnsafeMutableBufferPointer<UnsafePointer<UInt8>?>
    /// One output row combined vertically, at the source width.
    private let columnSums: UnsafeMutableBufferPointer<SIMD4<Float>>
    /// The same row filtered horizontally, at the target width.
    private let filteredRow: UnsafeMutableBufferPointer<SIMD4<Float>>
    private var nextSourceRow = 0
    /// The next output row to write; ``targetSize``'s height once every row is written.
    package private(set) var nextOutputRow = 0

    /// The bytes of working memory this resampler holds (the ring of source rows, and one float row at
    /// the source width and one at the target width).
    package var workingByteCount: Int {
        ring.count + (columnSums.count + filteredRow.count) * MemoryLayout<SIMD4<Float>>.stride
    }

    /// Creates a resampler from `source` to `target` (both at least 1×1) with `filter`; `hasAlpha`
    /// filters premultiplied, as ``Resampler`` does.
    package init(from source: PixelSize, to target: PixelSize, hasAlpha: Bool, filter: ResamplingFilter = .lanczos3) {
        precondition(source.width > 0 && source.height > 0 && target.width > 0 && target.height > 0,
                     "StreamingResampler: sizes must be positive")
        sourceSize = source
        targetSize = target
        premultiply = hasAlpha
        horizontal = WeightTable.shared(source: source.width, target: target.width, filter: filter)
        vertical = WeightTable.shared(source: source.height, target: target.height, filter: filter)
        var readyAfter = [Int]()
        readyAfter.reserveCapacity(target.height)
        var lastNeeded = 0, rows = 1
        for y in 0..<target.height {
            let taps = vertical.taps(for: y)
            lastNeeded = max(lastNeeded, taps.first + taps.weights.count - 1)
            readyAfter.append(lastNeeded)
            // Output row y is written right after source row `lastNeeded` arrives: the ring must still hold its first row.
            rows = max(rows, lastNeeded - taps.first + 1)
        }
        self.readyAfter = readyAfter
        ringRowCount = rows
        ring = .allocate(capacity: rows * source.width * 4)
        tapRows = .allocate(capacity: rows)
        tapRows.initialize(repeating: nil)
        columnSums = .allocate(capacity: source.width)
        filteredRow = .allocate(capacity: target.width)
    }

    deinit {
        ring.deallocate()
        tapRows.deallocate()
        columnSums.deallocate()
        filteredRow.deallocate()
    }

    /// Whether every output row has been written.
    package var isComplete: Bool { nextOutputRow == targetSize.height }

    /// Takes the next source row (`4 × sourceSize.width` RGBA8 bytes) and writes every output row it
    /// completes into `output` (the whole target image, rows `4 × targetSize.width` bytes apart).
    package func push(row: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
        let rowBytes = sourceSize.width * 4
        precondition(row.count >= rowBytes, "StreamingResampler: the row is too short")
        precondition(output.count >= targetSize.pixelCount * 4, "StreamingResampler: the output is too small")
        guard nextSourceRow < sourceSize.height else { return }
        let index = nextSourceRow
        nextSourceRow += 1
        guard nextOutputRow < targetSize.height, let source = row.baseAddress, let ring = ring.baseAddress else {
            return // rows below the last one any output reads
        }
        UnsafeMutableRawPointer(ring + (index % ringRowCount) * rowBytes).copyMemory(from: source, byteCount: rowBytes)
        while nextOutputRow < targetSize.height, readyAfter[nextOutputRow] <= index {
            writeOutputRow(nextOutputRow, into: output)
            nextOutputRow += 1
        }
    }

    /// Pushes `count` rows stored `stride` bytes apart from the start of `rows`.
    package func push(rows: UnsafeRawBufferPointer, count: Int, stride: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        let rowBytes = sourceSize.width * 4
        for y in 0..<count {
            let start = y * stride
            push(row: UnsafeRawBufferPointer(rebasing: rows[start..<(start + rowBytes)]), into: output)
        }
    }

    /// Makes output row `y` from the ring: the vertical pass over its source rows, in tap order, then
    /// the horizontal pass, then the store as RGBA8.
    private func writeOutputRow(_ y: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        let taps = vertical.taps(for: y)
        guard let ringBase = ring.baseAddress, let outputBase = output.baseAddress else { return }
        let rowBytes = sourceSize.width * 4
        for offset in 0..<taps.weights.count {
            tapRows[offset] = UnsafePointer(ringBase + ((taps.first + offset) % ringRowCount) * rowBytes)
        }
        taps.weights.withUnsafeBufferPointer { weights in
            columnSums.withMemoryRebound(to: Float.self) { sums in
                wik_filter_columns(tapRows.baseAddress, weights.baseAddress, weights.count, sourceSize.width,
                                   premultiply ? 1 : 0, sums.baseAddress)
            }
        }
        horizontal.apply(UnsafeBufferPointer(columnSums), into: filteredRow)
        filteredRow.withMemoryRebound(to: Float.self) { pixels in
            wik_store_rgba8(pixels.baseAddress, targetSize.width, premultiply ? 1 : 0, outputBase + y * targetSize.width * 4)
        }
    }
}
