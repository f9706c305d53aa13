import Testing
@testable import WebImageCore

/// The band resampler (issue 15): the same pixels as a full-height two-pass resample, in memory bounded
/// by the filter's support, not by the image's height.
@Suite struct StreamingResamplerTests {
    /// The two-pass resample the band resampler replaced, kept here as the oracle: every source row
    /// filtered horizontally into a full-height float intermediate, then each output row combined from it.
    static func twoPassReference(_ buffer: PixelBuffer, to size: PixelSize, filter: ResamplingFilter) -> PixelBuffer {
        let horizontal = WeightTable(source: buffer.width, target: size.width, filter: filter)
        let vertical = WeightTable(source: buffer.height, target: size.height, filter: filter)
        let premultiply = buffer.hasAlpha
        var row = [SIMD4<Float>](repeating: .zero, count: buffer.width)
        var middle = [SIMD4<Float>](repeating: .zero, count: size.width * buffer.height)
        buffer.withUnsafeBytes { source in
            row.withUnsafeMutableBufferPointer { row in
                middle.withUnsafeMutableBufferPointer { middle in
                    for y in 0..<buffer.height {
                        let start = y * buffer.bytesPerRow
                        Resampler.loadRow(UnsafeRawBufferPointer(rebasing: source[start..<(start + buffer.bytesPerRow)]),
                                          width: buffer.width, premultiply: premultiply, into: row)
                        horizontal.apply(UnsafeBufferPointer(row),
                                         into: UnsafeMutableBufferPointer(rebasing: middle[(y * size.width)..<((y + 1) * size.width)]))
                    }
                }
            }
        }
        var accumulator = [SIMD4<Float>](repeating: .zero, count: size.width)
        return PixelBuffer(width: size.width, height: size.height, hasAlpha: buffer.hasAlpha) { output in
            for y in 0..<size.height {
                for x in 0..<size.width { accumulator[x] = .zero }
                let taps = vertical.taps(for: y)
                for (offset, weight) in taps.weights.enumerated() {
                    let start = (taps.first + offset) * size.width
                    for x in 0..<size.width { accumulator[x] += middle[start + x] * weight }
                }
                for x in 0..<size.width {
                    Resampler.store(accumulator[x], premultiplied: premultiply, to: output.baseAddress! + (y * size.width + x) * 4)
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
    ]

    @Test(arguments: ResamplingFilter.allCases)
    func bandResampleEqualsTheFullHeightTwoPassResampleExactly(filter: ResamplingFilter) {
        for (source, target) in Self.shapes {
            for alpha in [false, true] {
                let buffer = PixelBuffer.samplePattern(width: source.width, height: source.height, alpha: alpha, seed: 7)
                let banded = Resampler.resize(buffer, to: target, filter: filter)
                #expect(banded == Self.twoPassReference(buffer, to: target, filter: filter),
                        "\(source) → \(target), alpha \(alpha), \(filter)")
            }
        }
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
    func theBandHoldsTheFilterSupportInRowsWhateverTheImageHeight(filter: ResamplingFilter) {
        for (sourceHeight, targetHeight) in [(1_000, 500), (100_000, 50_000), (30_000, 1_000), (6_000, 4_000)] {
            let source = PixelSize(width: 640, height: sourceHeight), target = PixelSize(width: 320, height: targetHeight)
            let resampler = StreamingResampler(from: source, to: target, hasAlpha: true, filter: filter)
            let scale = max(Double(sourceHeight) / Double(targetHeight), 1)
            // Taps of one output row: the kernel's width (2 × radius × scale) plus rounding at both ends.
            let supportRows = Int((2 * filter.radius * scale).rounded(.up)) + 3
            #expect(resampler.ringRowCount <= supportRows, "\(filter) \(sourceHeight) → \(targetHeight)")
            let floatPixel = MemoryLayout<SIMD4<Float>>.stride
            #expect(resampler.workingByteCount == resampler.ringRowCount * target.width * floatPixel + source.width * floatPixel + 64 * floatPixel)
            // Bounded by the support times the row width (4 floats a pixel), never by the height.
            #expect(resampler.workingByteCount <= supportRows * target.width * 4 * 4 + source.width * 16 + 1_024)
        }
    }
}
