import CWebImageKernels

/// Resamples an image whose rows arrive one at a time, top to bottom, into an output buffer, holding
/// only a band of filtered rows: what a streaming decoder (libjpeg scanlines, libpng rows) feeds, and
/// what ``Resampler/resize(_:to:filter:)`` runs on for an image already in memory.
///
/// Each source row is filtered horizontally as it arrives (to the target width, premultiplied `Float`)
/// and kept in a ring of ``ringRowCount`` rows: the most source rows any one output row reads, set by the
/// filter's support times the vertical scale. As soon as the last source row an output row needs has
/// arrived, that output row is combined from the ring and written as straight RGBA8. The same weight
/// tables and the same order of arithmetic as a full-height two-pass resample give bit-identical
/// results; memory is `(ringRowCount + 1) × target width + source width` float pixels, whatever the
/// image's height.
///
/// Not thread-safe: one decoder feeds one resampler.
package final class StreamingResampler {
    /// The size of the rows pushed in.
    package let sourceSize: PixelSize
    /// The size of the output.
    package let targetSize: PixelSize
    /// Rows of the ring of horizontally filtered rows.
    package let ringRowCount: Int
    /// Whether pixels are premultiplied while filtering (the source has alpha).
    private let premultiply: Bool
    private let horizontal: WeightTable
    private let vertical: WeightTable
    /// For each output row, the source row after whose arrival it can be written.
    private let readyAfter: [Int]
    private let ring: UnsafeMutableBufferPointer<SIMD4<Float>>
    private let sourceRow: UnsafeMutableBufferPointer<SIMD4<Float>>
    /// Pixels of an output row combined at a time: 1 KiB of floats, which stays in the L1 cache.
    private static let blockWidth = 64
    /// The output pixels being combined.
    private let block: UnsafeMutableBufferPointer<SIMD4<Float>>
    private var nextSourceRow = 0
    /// The next output row to write; ``targetSize``'s height once every row is written.
    package private(set) var nextOutputRow = 0

    /// The bytes of float working memory this resampler holds (the ring, one source row, one block).
    package var workingByteCount: Int {
        (ring.count + sourceRow.count + block.count) * MemoryLayout<SIMD4<Float>>.stride
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
        ring = .allocate(capacity: rows * target.width)
        sourceRow = .allocate(capacity: source.width)
        block = .allocate(capacity: Self.blockWidth)
    }

    deinit {
        ring.deallocate()
        sourceRow.deallocate()
        block.deallocate()
    }

    /// Whether every output row has been written.
    package var isComplete: Bool { nextOutputRow == targetSize.height }

    /// Takes the next source row (`4 × sourceSize.width` RGBA8 bytes) and writes every output row it
    /// completes into `output` (the whole target image, rows `4 × targetSize.width` bytes apart).
    package func push(row: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(row.count >= sourceSize.width * 4, "StreamingResampler: the row is too short")
        precondition(output.count >= targetSize.pixelCount * 4, "StreamingResampler: the output is too small")
        guard nextSourceRow < sourceSize.height else { return }
        let index = nextSourceRow
        nextSourceRow += 1
        guard nextOutputRow < targetSize.height else { return } // rows below the last one any output reads
        Resampler.loadRow(row, width: sourceSize.width, premultiply: premultiply, into: sourceRow)
        let slot = (index % ringRowCount) * targetSize.width
        horizontal.apply(UnsafeBufferPointer(sourceRow),
                         into: UnsafeMutableBufferPointer(rebasing: ring[slot..<(slot + targetSize.width)]))
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

    /// Combines output row `y` from the ring and writes it as RGBA8, ``blockWidth`` pixels at a time:
    /// each tap's row is added into a block that stays in the L1 cache, in tap order (so the sums are
    /// those of a whole-row accumulation), then the block is stored.
    private func writeOutputRow(_ y: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        let width = targetSize.width
        let taps = vertical.taps(for: y)
        guard let ringBase = ring.baseAddress, let outputBase = output.baseAddress, let block = block.baseAddress,
              let firstWeight = taps.weights.first else { return }
        let rowStart = outputBase + y * width * 4
        var blockStart = 0
        while blockStart < width {
            let count = min(Self.blockWidth, width - blockStart)
            for (offset, weight) in taps.weights.enumerated() {
                let row = ringBase + ((taps.first + offset) % ringRowCount) * width + blockStart
                if offset == 0 {
                    for x in 0..<count { block[x] = row[x] * firstWeight }
                } else {
                    for x in 0..<count { block[x] += row[x] * weight }
                }
            }
            UnsafeRawPointer(block).withMemoryRebound(to: Float.self, capacity: count * 4) { floats in
                wik_store_rgba8(floats, count, premultiply ? 1 : 0, rowStart + blockStart * 4)
            }
            blockStart += count
        }
    }
}
