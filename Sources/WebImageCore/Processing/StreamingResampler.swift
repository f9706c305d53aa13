import CWebImageKernels

/// Resamples an image whose rows arrive one at a time, top to bottom, into an output buffer, holding
/// only a band of rows: what a streaming decoder (libjpeg scanlines, libpng rows) feeds, and what
/// ``Resampler/resize(_:to:filter:)`` runs on for an image already in memory.
///
/// Rows are kept as they arrive in a ring of ``ringRowCount`` rows: the most source rows any one output
/// row reads, set by the filter's support times the vertical scale. As soon as the last source row an
/// output row needs has arrived, that output row is made from the ring and written as straight RGBA8.
/// Which pass runs first is chosen for the smaller ring (``order``): the vertical pass first keeps the
/// source rows as bytes (4 bytes a pixel at the source width) and reads them as bytes, which is faster;
/// the horizontal pass first keeps rows already filtered to the target width as `Float` (16 bytes a
/// pixel), which is smaller when the width shrinks more than four times. Images with alpha are filtered
/// on premultiplied `Float`; opaque ones in 16-bit fixed point (``arithmetic``, ``FixedPointPlan``), where
/// the filtered rows are 16-bit integers (8 bytes a pixel) instead of floats. The same weight tables and
/// the same order of arithmetic as a full-height two-pass resample give bit-identical results (the two
/// orders differ by float rounding: at most one level). Memory is the ring plus one row at the source
/// width and one at the target width, whatever the height.
///
/// Not thread-safe: one decoder feeds one resampler.
package final class StreamingResampler {
    /// Which pass runs first.
    package enum Order: Sendable {
        /// Source rows kept as bytes; each output row combined from them, then filtered horizontally.
        case verticalFirst
        /// Each source row filtered horizontally as it arrives and kept as floats; output rows combined from those.
        case horizontalFirst
    }

    /// The arithmetic of the passes.
    package enum Arithmetic: Sendable {
        /// `Float`, premultiplied when the source has alpha.
        case float
        /// 16-bit integers (opaque sources only), within one level of `float` on every channel.
        case fixedPoint
    }

    /// The size of the rows pushed in.
    package let sourceSize: PixelSize
    /// The size of the output.
    package let targetSize: PixelSize
    /// Which pass runs first: the one whose ring is smaller (vertical first unless the width shrinks more than 4×).
    package let order: Order
    /// Rows of the ring.
    package let ringRowCount: Int
    /// The arithmetic of the passes: fixed point for opaque sources where ``FixedPointPlan`` allows it.
    package var arithmetic: Arithmetic { fixedPoint == nil ? .float : .fixedPoint }
    /// The integer taps and shifts, when the passes run in fixed point.
    private let fixedPoint: FixedPointPlan?
    /// Whether the horizontal pass is skipped: the width does not change and, in fixed point with the vertical pass
    /// first, the integer taps copy each value unchanged (one weight of `2^shift` at its own index), so the
    /// vertical pass's row is already the output row (a 2/8 JPEG decode of 1365 rows resampled to 341, say).
    package let skipsHorizontalPass: Bool
    /// Whether pixels are premultiplied while filtering (the source has alpha).
    private let premultiply: Bool
    private let horizontal: WeightTable
    private let vertical: WeightTable
    /// For each output row, the source row after whose arrival it can be written.
    private let readyAfter: [Int]
    /// The last ``ringRowCount`` rows: source bytes (vertical first) or target-width floats (horizontal first).
    private let ring: UnsafeMutableRawBufferPointer
    private let ringRowBytes: Int
    /// The start of each ring row an output row reads, in tap order.
    private let tapRows: UnsafeMutableBufferPointer<UnsafeRawPointer?>
    /// A row at the source width: an output row combined vertically, or a source row loaded. Floats, or
    /// 16-bit values in fixed point (then it has half as many elements, each holding two pixels).
    private let sourceRow: UnsafeMutableBufferPointer<SIMD4<Float>>
    /// A row at the target width: the output row before it is stored as bytes (floats or 16-bit values).
    private let targetRow: UnsafeMutableBufferPointer<SIMD4<Float>>
    private var nextSourceRow = 0
    /// The next output row to write; ``targetSize``'s height once every row is written.
    package private(set) var nextOutputRow = 0

    /// The bytes of working memory this resampler holds (the ring, one row at the source width and one
    /// at the target width).
    package var workingByteCount: Int {
        ring.count + (sourceRow.count + targetRow.count) * MemoryLayout<SIMD4<Float>>.stride
    }

    /// Creates a resampler from `source` to `target` (both at least 1×1) with `filter`; `hasAlpha`
    /// filters premultiplied, as ``Resampler`` does. Without alpha the passes run in fixed point when
    /// `allowingFixedPoint` and ``FixedPointPlan`` allow it.
    package init(from source: PixelSize, to target: PixelSize, hasAlpha: Bool, filter: ResamplingFilter = .lanczos3,
                 allowingFixedPoint: Bool = true) {
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
        let pixel = MemoryLayout<SIMD4<Float>>.stride
        order = source.width * 4 <= target.width * pixel ? .verticalFirst : .horizontalFirst
        let plan = hasAlpha || !allowingFixedPoint ? nil
            : FixedPointPlan(vertical: vertical, horizontal: horizontal, verticalFirst: order == .verticalFirst)
        fixedPoint = plan
        let horizontalTable = horizontal
        skipsHorizontalPass = order == .verticalFirst && plan.map { horizontalTable.copiesUnchanged($0.horizontal, shift: $0.horizontalShift) } ?? false
        // A fixed-point row is 8 bytes a pixel: a SIMD4<Float> element holds two.
        func elements(_ width: Int) -> Int { plan == nil ? width : (width + 1) / 2 }
        ringRowBytes = order == .verticalFirst ? source.width * 4 : elements(target.width) * pixel
        ring = .allocate(byteCount: rows * ringRowBytes, alignment: pixel)
        tapRows = .allocate(capacity: rows)
        tapRows.initialize(repeating: nil)
        sourceRow = .allocate(capacity: elements(source.width))
        targetRow = .allocate(capacity: elements(target.width))
    }

    deinit {
        ring.deallocate()
        tapRows.deallocate()
        sourceRow.deallocate()
        targetRow.deallocate()
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
        let slot = ring + (index % ringRowCount) * ringRowBytes
        switch order {
        case .verticalFirst:
            slot.copyMemory(from: source, byteCount: rowBytes)
        case .horizontalFirst where fixedPoint != nil:
            filterSourceRowInFixedPoint(source.assumingMemoryBound(to: UInt8.self), into: slot)
        case .horizontalFirst:
            // Loaded as floats by the vertical kernel with one tap of weight 1 (exact), then filtered into the ring.
            var rowStart: UnsafePointer<UInt8>? = source.assumingMemoryBound(to: UInt8.self)
            var one: Float = 1
            sourceRow.withMemoryRebound(to: Float.self) { floats in
                wik_filter_columns(&rowStart, &one, 1, sourceSize.width, premultiply ? 1 : 0, floats.baseAddress)
            }
            horizontal.apply(UnsafeBufferPointer(sourceRow), into: UnsafeMutableBufferPointer(
                start: slot.bindMemory(to: SIMD4<Float>.self, capacity: targetSize.width), count: targetSize.width))
        }
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

    /// Makes output row `y` from the ring, in tap order (the vertical pass over source bytes then the
    /// horizontal pass, or the vertical pass over filtered rows), and stores it as RGBA8.
    private func writeOutputRow(_ y: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        let taps = vertical.taps(for: y)
        guard let ringBase = ring.baseAddress, let outputBase = output.baseAddress else { return }
        for offset in 0..<taps.weights.count {
            tapRows[offset] = UnsafeRawPointer(ringBase + ((taps.first + offset) % ringRowCount) * ringRowBytes)
        }
        if let fixedPoint {
            writeOutputRowInFixedPoint(fixedPoint, weights: taps.weights.indices, into: outputBase + y * targetSize.width * 4)
        } else {
            writeOutputRowInFloat(weights: taps.weights, into: outputBase + y * targetSize.width * 4)
        }
    }

    /// The float passes for one output row whose ring rows are in ``tapRows``.
    private func writeOutputRowInFloat(weights: ArraySlice<Float>, into output: UnsafeMutablePointer<UInt8>) {
        guard let tapBase = tapRows.baseAddress else { return }
        weights.withUnsafeBufferPointer { weights in
            switch order {
            case .verticalFirst:
                tapBase.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: weights.count) { rows in
                    sourceRow.withMemoryRebound(to: Float.self) { sums in
                        wik_filter_columns(rows, weights.baseAddress, weights.count, sourceSize.width, premultiply ? 1 : 0, sums.baseAddress)
                    }
                }
                horizontal.apply(UnsafeBufferPointer(sourceRow), into: targetRow)
            case .horizontalFirst:
                tapBase.withMemoryRebound(to: UnsafePointer<Float>?.self, capacity: weights.count) { rows in
                    targetRow.withMemoryRebound(to: Float.self) { sums in
                        wik_combine_rows(rows, weights.baseAddress, weights.count, targetSize.width * 4, sums.baseAddress)
                    }
                }
            }
        }
        targetRow.withMemoryRebound(to: Float.self) { pixels in
            wik_store_rgba8(pixels.baseAddress, targetSize.width, premultiply ? 1 : 0, output)
        }
    }

    /// The fixed-point passes for one output row whose ring rows are in ``tapRows``; `weights` are the
    /// indices of its vertical taps (the same in the `Float` and the integer weights).
    private func writeOutputRowInFixedPoint(_ plan: FixedPointPlan, weights: Range<Int>, into output: UnsafeMutablePointer<UInt8>) {
        guard let tapBase = tapRows.baseAddress else { return }
        plan.vertical.weights[weights].withUnsafeBufferPointer { integers in
            targetRow.withMemoryRebound(to: Int16.self) { target in
                switch order {
                case .verticalFirst:
                    sourceRow.withMemoryRebound(to: Int16.self) { middle in
                        tapBase.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: integers.count) { rows in
                            // Straight into the target row when it is the output row already.
                            wik_fixed_columns_u8(rows, integers.baseAddress, integers.count, sourceSize.width,
                                                 Int32(plan.verticalShift), skipsHorizontalPass ? target.baseAddress : middle.baseAddress)
                        }
                        guard !skipsHorizontalPass else { return }
                        horizontal.apply(plan.horizontal, shift: plan.horizontalShift, to: UnsafeBufferPointer(middle),
                                         into: UnsafeMutableBufferPointer(rebasing: target[0..<(targetSize.width * 4)]))
                    }
                case .horizontalFirst:
                    tapBase.withMemoryRebound(to: UnsafePointer<Int16>?.self, capacity: integers.count) { rows in
                        wik_fixed_columns_i16(rows, integers.baseAddress, integers.count, targetSize.width * 4,
                                              Int32(plan.verticalShift), target.baseAddress)
                    }
                }
                wik_fixed_store_rgba8(target.baseAddress, targetSize.width, Int32(FixedPointPlan.fractionBits), output)
            }
        }
    }

    /// The horizontal pass first, in fixed point: source row `bytes` widened to 16-bit values (one tap of
    /// weight 1, no shift), filtered to the target width into the ring's `slot`.
    private func filterSourceRowInFixedPoint(_ bytes: UnsafePointer<UInt8>, into slot: UnsafeMutableRawPointer) {
        guard let plan = fixedPoint else { return }
        var rowStart: UnsafePointer<UInt8>? = bytes
        var one: Int16 = 1
        sourceRow.withMemoryRebound(to: Int16.self) { widened in
            wik_fixed_columns_u8(&rowStart, &one, 1, sourceSize.width, 0, widened.baseAddress)
            let count = targetSize.width * 4
            horizontal.apply(plan.horizontal, shift: plan.horizontalShift,
                             to: UnsafeBufferPointer(rebasing: widened[0..<(sourceSize.width * 4)]),
                             into: UnsafeMutableBufferPointer(start: slot.bindMemory(to: Int16.self, capacity: count), count: count))
        }
    }
}
