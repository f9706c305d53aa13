import CWebImageKernels
import Testing
@testable import WebImageCore

/// The band resampler (issue 15): the same pixels as a full-height two-pass resample, in memory bounded
/// by the filter's support, not by the image's height; its filter kernels do the arithmetic of plain
/// Swift loops.
@Suite struct StreamingResamplerTests {
    /// The full-height two-pass resample, as the oracle of the band resampler's bookkeeping (which rows it
    /// keeps, when it writes): in the resampler's order, the first pass over the whole image into a
    /// full-height float intermediate, then the second pass over it, with the same kernels. (Their
    /// arithmetic is pinned against plain Swift below.)
    static func twoPassReference(_ buffer: PixelBuffer, to size: PixelSize, filter: ResamplingFilter) -> PixelBuffer {
        let horizontal = WeightTable(source: buffer.width, target: size.width, filter: filter)
        let vertical = WeightTable(source: buffer.height, target: size.height, filter: filter)
        let premultiply: Int32 = buffer.hasAlpha ? 1 : 0
        let order = StreamingResampler(from: buffer.size, to: size, hasAlpha: buffer.hasAlpha, filter: filter).order
        var result = [SIMD4<Float>](repeating: .zero, count: size.width * size.height)
        buffer.withUnsafeBytes { source in
            let sourceRows = (0..<buffer.height).map { source.baseAddress!.assumingMemoryBound(to: UInt8.self) + $0 * buffer.bytesPerRow }
            result.withUnsafeMutableBufferPointer { result in
                switch order {
                case .verticalFirst: // source rows combined into rows of the source width, each then filtered
                    var middle = [SIMD4<Float>](repeating: .zero, count: buffer.width)
                    for y in 0..<size.height {
                        let taps = vertical.taps(for: y)
                        let rows: [UnsafePointer<UInt8>?] = (0..<taps.weights.count).map { UnsafePointer(sourceRows[taps.first + $0]) }
                        middle.withUnsafeMutableBytes { middleBytes in
                            wik_filter_columns(rows, Array(taps.weights), taps.weights.count, buffer.width, premultiply,
                                               middleBytes.baseAddress!.assumingMemoryBound(to: Float.self))
                        }
                        middle.withUnsafeBufferPointer { middle in
                            horizontal.apply(middle, into: UnsafeMutableBufferPointer(rebasing: result[(y * size.width)..<((y + 1) * size.width)]))
                        }
                    }
                case .horizontalFirst: // every source row loaded and filtered, then rows of those combined
                    var loaded = [SIMD4<Float>](repeating: .zero, count: buffer.width)
                    var middle = [SIMD4<Float>](repeating: .zero, count: size.width * buffer.height)
                    for y in 0..<buffer.height {
                        loaded.withUnsafeMutableBytes { loadedBytes in
                            wik_filter_columns([UnsafePointer(sourceRows[y])], [1], 1, buffer.width, premultiply,
                                               loadedBytes.baseAddress!.assumingMemoryBound(to: Float.self))
                        }
                        loaded.withUnsafeBufferPointer { loaded in
                            middle.withUnsafeMutableBufferPointer { middle in
                                horizontal.apply(loaded, into: UnsafeMutableBufferPointer(rebasing: middle[(y * size.width)..<((y + 1) * size.width)]))
                            }
                        }
                    }
                    middle.withUnsafeBytes { middleBytes in
                        let floats = middleBytes.baseAddress!.assumingMemoryBound(to: Float.self)
                        for y in 0..<size.height {
                            let taps = vertical.taps(for: y)
                            let rows: [UnsafePointer<Float>?] = (0..<taps.weights.count).map { floats + (taps.first + $0) * size.width * 4 }
                            UnsafeMutableRawPointer(result.baseAddress! + y * size.width).withMemoryRebound(to: Float.self, capacity: size.width * 4) {
                                wik_combine_rows(rows, Array(taps.weights), taps.weights.count, size.width * 4, $0)
                            }
                        }
                    }
                }
            }
        }
        return PixelBuffer(width: size.width, height: size.height, hasAlpha: buffer.hasAlpha) { output in
            for index in 0..<result.count {
                Resampler.store(result[index], premultiplied: buffer.hasAlpha, to: output.baseAddress! + index * 4)
            }
        }
    }

    /// Whether each channel of `a` is within 1/10,000 of `b`'s (channels are on the 0…255 scale).
    static func close(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Bool {
        (0..<4).allSatisfy { Swift.abs(a[$0] - b[$0]) <= 1e-4 }
    }

    /// A pixel as the filters read it: float channels, premultiplied by alpha · (1/255) when asked.
    static func floatPixel(_ bytes: UnsafeRawBufferPointer, at index: Int, premultiply: Bool) -> SIMD4<Float> {
        let pixel = SIMD4<Float>(Float(bytes[index * 4]), Float(bytes[index * 4 + 1]), Float(bytes[index * 4 + 2]), Float(bytes[index * 4 + 3]))
        guard premultiply else { return pixel }
        let alpha = pixel.w * (1 / 255)
        return pixel * SIMD4(alpha, alpha, alpha, 1)
    }

    /// The resample in plain Swift arithmetic, the other way round (horizontal pass first), as before the
    /// filters moved to C: a separable filter's two orders differ only by float rounding.
    static func horizontalFirstReference(_ buffer: PixelBuffer, to size: PixelSize, filter: ResamplingFilter) -> PixelBuffer {
        let horizontal = WeightTable(source: buffer.width, target: size.width, filter: filter)
        let vertical = WeightTable(source: buffer.height, target: size.height, filter: filter)
        var middle = [SIMD4<Float>](repeating: .zero, count: size.width * buffer.height)
        buffer.withUnsafeBytes { source in
            for y in 0..<buffer.height {
                let row = UnsafeRawBufferPointer(rebasing: source[(y * buffer.bytesPerRow)..<((y + 1) * buffer.bytesPerRow)])
                for x in 0..<size.width {
                    let taps = horizontal.taps(for: x)
                    var sum = SIMD4<Float>.zero
                    for (offset, weight) in taps.weights.enumerated() {
                        sum += floatPixel(row, at: taps.first + offset, premultiply: buffer.hasAlpha) * weight
                    }
                    middle[y * size.width + x] = sum
                }
            }
        }
        return PixelBuffer(width: size.width, height: size.height, hasAlpha: buffer.hasAlpha) { output in
            for y in 0..<size.height {
                let taps = vertical.taps(for: y)
                for x in 0..<size.width {
                    var sum = SIMD4<Float>.zero
                    for (offset, weight) in taps.weights.enumerated() { sum += middle[(taps.first + offset) * size.width + x] * weight }
                    Resampler.store(sum, premultiplied: buffer.hasAlpha, to: output.baseAddress! + (y * size.width + x) * 4)
                }
            }
        }
    }

    static let shapes: [(PixelSize, PixelSize)] = [
        (PixelSize(width: 97, height: 61), PixelSize(width: 31, height: 20)),   // shrink both ways
        (PixelSize(width: 40, height: 30), PixelSize(width: 97, height: 71)),   // enlarge both ways
        (PixelSize(width: 120, height: 17), PixelSize(width: 45, height: 50)),  // shrink one way, enlarge the other
        (PixelSize(width: 64, height: 300), PixelSize(width: 64, height: 7)),   // only vertical, by a lot
        (PixelSize(width: 9, height: 1), PixelSize(width: 3, height: 1)),       // a single row
        (PixelSize(width: 300, height: 40), PixelSize(width: 20, height: 13)),  // the width shrinks over 4×: horizontal pass first
        (PixelSize(width: 1000, height: 3), PixelSize(width: 7, height: 2)),    // the same, by a lot
    ]

    @Test func thePassWhoseRingIsSmallerRunsFirst() {
        let orders = Self.shapes.map { StreamingResampler(from: $0.0, to: $0.1, hasAlpha: false).order }
        #expect(orders.contains(.verticalFirst) && orders.contains(.horizontalFirst)) // the shapes test both
        for (source, target) in Self.shapes {
            let order = StreamingResampler(from: source, to: target, hasAlpha: false).order
            #expect((order == .verticalFirst) == (source.width * 4 <= target.width * 16), "\(source) → \(target)")
        }
    }

    /// The float path, opaque images included (they run in fixed point unless asked not to; the fixed-point
    /// band has its own exact oracle in `FixedPointResamplerTests`, and is within one level of this one).
    @Test(arguments: ResamplingFilter.allCases)
    func bandResampleEqualsTheFullHeightTwoPassResampleExactly(filter: ResamplingFilter) {
        for (source, target) in Self.shapes {
            for alpha in [false, true] {
                let buffer = PixelBuffer.samplePattern(width: source.width, height: source.height, alpha: alpha, seed: 7)
                let banded = Resampler.resize(buffer, to: target, filter: filter, allowingFixedPoint: false)
                #expect(banded == Self.twoPassReference(buffer, to: target, filter: filter),
                        "\(source) → \(target), alpha \(alpha), \(filter)")
            }
        }
    }

    /// The float path (opaque images too, asked for explicitly): the fixed-point path is compared with it in
    /// `FixedPointResamplerTests`.
    @Test(arguments: ResamplingFilter.allCases)
    func theResampleIsWithinOneLevelOfAHorizontalFirstResampleInPlainSwift(filter: ResamplingFilter) {
        for (source, target) in Self.shapes {
            for alpha in [false, true] {
                let buffer = PixelBuffer.samplePattern(width: source.width, height: source.height, alpha: alpha, seed: 11)
                let resized = Resampler.resize(buffer, to: target, filter: filter, allowingFixedPoint: false)
                let reference = Self.horizontalFirstReference(buffer, to: target, filter: filter)
                let largest = resized.withUnsafeBytes { a in
                    reference.withUnsafeBytes { b in zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0 }
                }
                #expect(largest <= 1, "\(source) → \(target), alpha \(alpha), \(filter): \(largest)")
            }
        }
    }

    @Test(arguments: [false, true])
    func theFilterKernelsComputeTheWeightedSumsOfPlainSwift(premultiply: Bool) {
        let width = 23 // five vectors of four pixels and a tail of three
        let image = PixelBuffer.samplePattern(width: width, height: 5, alpha: true, seed: 5)
        let weights: [Float] = [-0.07, 0.31, 0.52, 0.29, -0.05]
        var sums = [SIMD4<Float>](repeating: .zero, count: width)
        image.withUnsafeBytes { bytes in
            let rows: [UnsafePointer<UInt8>?] = (0..<5).map { bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + $0 * image.bytesPerRow }
            sums.withUnsafeMutableBytes { out in
                wik_filter_columns(rows, weights, weights.count, width, premultiply ? 1 : 0, out.baseAddress!.assumingMemoryBound(to: Float.self))
            }
            for x in 0..<width {
                var expected = SIMD4<Float>.zero
                for (y, weight) in weights.enumerated() {
                    let row = UnsafeRawBufferPointer(rebasing: bytes[(y * image.bytesPerRow)...])
                    expected += Self.floatPixel(row, at: x, premultiply: premultiply) * weight
                }
                // A fused multiply-add rounds once where Swift rounds twice: a few units in the last place.
                #expect(Self.close(sums[x], expected), "column \(x): \(sums[x]) vs \(expected)")
            }
        }
        let combined = [SIMD4<Float>](unsafeUninitializedCapacity: width) { out, count in
            sums.withUnsafeBytes { sumsBytes in
                let floats = sumsBytes.baseAddress!.assumingMemoryBound(to: Float.self)
                let rows: [UnsafePointer<Float>?] = [floats, floats + 4, floats + 8] // three rows, a pixel apart
                out.withMemoryRebound(to: Float.self) { wik_combine_rows(rows, [0.25, 0.5, 0.25], 3, (width - 2) * 4, $0.baseAddress) }
            }
            count = width - 2
        }
        for x in 0..<(width - 2) {
            #expect(Self.close(combined[x], sums[x] * 0.25 + sums[x + 1] * 0.5 + sums[x + 2] * 0.25), "combined \(x)")
        }
        let table = WeightTable(source: width, target: 9, filter: .lanczos3)
        var filtered = [SIMD4<Float>](repeating: .zero, count: 9)
        sums.withUnsafeBufferPointer { row in
            filtered.withUnsafeMutableBufferPointer { table.apply(row, into: $0) }
        }
        for x in 0..<9 {
            let taps = table.taps(for: x)
            var expected = SIMD4<Float>.zero
            for (offset, weight) in taps.weights.enumerated() { expected += sums[taps.first + offset] * weight }
            #expect(Self.close(filtered[x], expected), "pixel \(x): \(filtered[x]) vs \(expected)")
        }
    }

    @Test(arguments: [false, true])
    func theKernelsWithoutAVX2GiveTheSameSumsAsTheOnesInUse(premultiply: Bool) {
        // On an AVX2 machine the first of each pair runs the fused, 256-bit variant; elsewhere both are the plain one.
        let width = 37
        let image = PixelBuffer.samplePattern(width: width, height: 7, alpha: true, seed: 9)
        let weights: [Float] = [-0.02, -0.08, 0.27, 0.66, 0.27, -0.08, -0.02]
        var inUse = [Float](repeating: 0, count: width * 4), plain = inUse
        image.withUnsafeBytes { bytes in
            let rows: [UnsafePointer<UInt8>?] = (0..<7).map { bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + $0 * image.bytesPerRow }
            wik_filter_columns(rows, weights, 7, width, premultiply ? 1 : 0, &inUse)
            wik_filter_columns_plain(rows, weights, 7, width, premultiply ? 1 : 0, &plain)
        }
        #expect(zip(inUse, plain).allSatisfy { Swift.abs($0 - $1) <= 1e-4 })

        var combined = [Float](repeating: 0, count: (width - 6) * 4), combinedPlain = combined
        inUse.withUnsafeBufferPointer { floats in
            let rows: [UnsafePointer<Float>?] = (0..<7).map { floats.baseAddress! + $0 * 4 } // rows a pixel apart
            wik_combine_rows(rows, weights, 7, (width - 6) * 4, &combined)
            wik_combine_rows_plain(rows, weights, 7, (width - 6) * 4, &combinedPlain)
        }
        #expect(zip(combined, combinedPlain).allSatisfy { Swift.abs($0 - $1) <= 1e-3 })

        let firsts = (0..<10).map { $0 * 3 }, counts = [Int](repeating: 7, count: 10), offsets = [Int](repeating: 0, count: 10)
        var filtered = [Float](repeating: 0, count: 40), filteredPlain = filtered
        wik_filter_row(inUse, firsts, counts, offsets, weights, 10, &filtered)
        wik_filter_row_plain(inUse, firsts, counts, offsets, weights, 10, &filteredPlain)
        #expect(zip(filtered, filteredPlain).allSatisfy { Swift.abs($0 - $1) <= 1e-3 })
        #expect(filtered.contains { $0 != 0 }) // the sums were made
    }

    @Test func aSharedWeightTableIsTheSameAsAFreshOneFromAnyThread() async {
        let sizes = [(2048, 512), (768, 517), (512, 500), (100_000, 3_000)] // the last is too large to keep
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for (source, target) in sizes {
                        let shared = WeightTable.shared(source: source, target: target, filter: .lanczos3)
                        let fresh = WeightTable(source: source, target: target, filter: .lanczos3)
                        for index in stride(from: 0, to: target, by: 97) {
                            #expect(shared.taps(for: index).first == fresh.taps(for: index).first)
                            #expect(shared.taps(for: index).weights.elementsEqual(fresh.taps(for: index).weights))
                        }
                    }
                    // Many small tables made and looked up at once: contention on the cache's lock (a futex-based
                    // lock, which ThreadSanitizer cannot see, showed false races here and failed the sanitizer stage).
                    for round in 0..<300 {
                        let target = 8 + (task * 300 + round) % 600
                        #expect(WeightTable.shared(source: 16, target: target, filter: .lanczos3).taps(for: 0).first == 0)
                    }
                }
            }
        }
    }

    @Test func pushingRowsOneAtATimeWritesEveryOutputRowOnceTheirLastSourceRowArrived() {
        let buffer = PixelBuffer.samplePattern(width: 50, height: 80, alpha: true, seed: 3)
        let target = PixelSize(width: 20, height: 30)
        let resampler = StreamingResampler(from: buffer.size, to: target, hasAlpha: true)
        var written: [Int] = []
        let result = PixelBuffer(width: target.width, height: target.height, hasAlpha: true) { output in
            buffer.withUnsafeBytes { source in
                for y in 0..<buffer.height {
                    let start = y * buffer.bytesPerRow
                    resampler.push(row: UnsafeRawBufferPointer(rebasing: source[start..<(start + buffer.bytesPerRow)]), into: output)
                    written.append(resampler.nextOutputRow)
                }
            }
        }
        #expect(resampler.isComplete)
        #expect(written.last == target.height)
        #expect(zip(written, written.dropFirst()).allSatisfy { $0 <= $1 }) // rows come out in order, as they can
        #expect(written[written.count / 2] > 0 && written[written.count / 2] < target.height) // while rows still arrive
        #expect(result == Self.twoPassReference(buffer, to: target, filter: .lanczos3))
    }

    @Test(arguments: ResamplingFilter.allCases)
    func theBandHoldsTheFilterSupportInRowsOfTheNarrowerKindWhateverTheImageHeight(filter: ResamplingFilter) {
        let heights = [(1_000, 500), (100_000, 50_000), (30_000, 1_000), (6_000, 4_000), (6_000, 12)]
        for (sourceWidth, targetWidth) in [(640, 320), (8_000, 16)] {
            for (sourceHeight, targetHeight) in heights {
                let source = PixelSize(width: sourceWidth, height: sourceHeight), target = PixelSize(width: targetWidth, height: targetHeight)
                let resampler = StreamingResampler(from: source, to: target, hasAlpha: true, filter: filter)
                let scale = max(Double(sourceHeight) / Double(targetHeight), 1)
                // Taps of one output row: the kernel's width (2 × radius × scale) plus rounding at both ends.
                let supportRows = Int((2 * filter.radius * scale).rounded(.up)) + 3
                #expect(resampler.ringRowCount <= supportRows, "\(filter) \(source) → \(target)")
                // Ring rows of source bytes or of target-width floats, whichever is smaller; never the image's height.
                let ringRow = min(source.width * 4, target.width * 16)
                #expect(resampler.workingByteCount <= supportRows * ringRow + (source.width + target.width) * 16,
                        "\(filter) \(source) → \(target): \(resampler.workingByteCount) bytes")
            }
        }
    }
}
