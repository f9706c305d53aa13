import CWebImageKernels
import Testing
@testable import WebImageCore

/// The 16-bit fixed-point resampler for opaque images (issue 33): integer taps summing exactly to their
/// scale, sums that cannot overflow, AVX2 and plain C giving the same bytes, and results within one level
/// of the float path on every channel.
@Suite struct FixedPointResamplerTests {
    /// Source and target sizes: both ways, odd widths, sides of one pixel, and extreme ratios in either pass.
    static let shapes: [(PixelSize, PixelSize)] = [
        (PixelSize(width: 97, height: 61), PixelSize(width: 31, height: 20)),    // shrink both ways
        (PixelSize(width: 40, height: 30), PixelSize(width: 97, height: 71)),    // enlarge both ways
        (PixelSize(width: 120, height: 17), PixelSize(width: 45, height: 50)),   // shrink one way, enlarge the other
        (PixelSize(width: 300, height: 40), PixelSize(width: 20, height: 13)),   // horizontal pass first
        (PixelSize(width: 1, height: 50), PixelSize(width: 3, height: 10)),      // a one-pixel column
        (PixelSize(width: 50, height: 1), PixelSize(width: 7, height: 1)),       // a one-pixel row
        (PixelSize(width: 33, height: 21), PixelSize(width: 1, height: 1)),      // to one pixel
        (PixelSize(width: 1, height: 1), PixelSize(width: 5, height: 3)),        // from one pixel
        (PixelSize(width: 6000, height: 4), PixelSize(width: 1, height: 1)),     // 6000 → 1 in the first pass
        (PixelSize(width: 4, height: 6000), PixelSize(width: 1, height: 1)),     // 6000 → 1 vertically, first too
        (PixelSize(width: 2000, height: 300), PixelSize(width: 80, height: 7)),  // 25× and 43×
        (PixelSize(width: 205, height: 137), PixelSize(width: 51, height: 34)),  // a server resize, smaller
    ]

    /// Bytes of white noise over the whole range, the content that weight rounding hurts most.
    static func noise(width: Int, height: Int, seed: UInt64) -> PixelBuffer {
        var state = seed
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for index in bytes.indices where index % 4 != 3 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
        return PixelBuffer(width: width, height: height, hasAlpha: false, bytes: bytes)
    }

    static func largestDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        a.withUnsafeBytes { a in b.withUnsafeBytes { b in zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0 } }
    }

    @Test(arguments: ResamplingFilter.allCases)
    func theFixedPointResultIsWithinOneLevelOfTheFloatResultOnEveryChannel(filter: ResamplingFilter) {
        for (source, target) in Self.shapes {
            #expect(StreamingResampler(from: source, to: target, hasAlpha: false, filter: filter).arithmetic == .fixedPoint,
                    "\(source) → \(target), \(filter)")
            for image in [PixelBuffer.samplePattern(width: source.width, height: source.height, seed: 13),
                          Self.noise(width: source.width, height: source.height, seed: 5)] {
                let fixed = Resampler.resize(image, to: target, filter: filter)
                let float = Resampler.resize(image, to: target, filter: filter, allowingFixedPoint: false)
                #expect(fixed.size == target && fixed.isOpaque)
                let largest = Self.largestDifference(fixed, float)
                #expect(largest <= 1, "\(source) → \(target), \(filter): \(largest) levels")
            }
        }
    }

    @Test func opaqueImagesRunInFixedPointImagesWithAlphaInFloat() {
        let server = (PixelSize(width: 2048, height: 1365), PixelSize(width: 512, height: 341))
        let thumbnail = (PixelSize(width: 6000, height: 4000), PixelSize(width: 256, height: 171))
        for (source, target) in [server, thumbnail] {
            #expect(StreamingResampler(from: source, to: target, hasAlpha: false).arithmetic == .fixedPoint)
            #expect(StreamingResampler(from: source, to: target, hasAlpha: true).arithmetic == .float)
            #expect(StreamingResampler(from: source, to: target, hasAlpha: false, allowingFixedPoint: false).arithmetic == .float)
        }
    }

    @Test func anExtremeReductionInTheSecondPassFallsBackToFloat() {
        // 3000 → 1 vertically after the horizontal pass: rounding 3000 weights at 15 bits could cost more than a level.
        let source = PixelSize(width: 10, height: 3000), target = PixelSize(width: 1, height: 1)
        let resampler = StreamingResampler(from: source, to: target, hasAlpha: false)
        #expect(resampler.order == .horizontalFirst)
        #expect(resampler.arithmetic == .float)
        let vertical = WeightTable(source: 3000, target: 1, filter: .lanczos3)
        let horizontal = WeightTable(source: 10, target: 1, filter: .lanczos3)
        #expect(FixedPointPlan(vertical: vertical, horizontal: horizontal, verticalFirst: false) == nil)
        #expect(FixedPointPlan(vertical: vertical, horizontal: horizontal, verticalFirst: true) != nil) // bytes allow 22 bits
    }

    @Test(arguments: ResamplingFilter.allCases)
    func everyRunOfIntegerWeightsSumsExactlyToTheScaleAndCannotOverflowItsPass(filter: ResamplingFilter) {
        let lengths = [(2048, 512), (1365, 341), (6000, 256), (4000, 171), (750, 256), (6000, 1), (100, 1000), (3, 7),
                       (1, 1), (1, 9), (17, 17), (31, 30)]
        for (source, target) in lengths {
            let table = WeightTable(source: source, target: target, filter: filter)
            for (taps, magnitude) in [(table.fixedForBytes, 255), (table.fixedForWords, 32_768)] {
                guard let taps else {
                    Issue.record("\(source) → \(target), \(filter): no integer taps for inputs up to \(magnitude)")
                    continue
                }
                #expect((8...FixedPointTaps.largestPrecision).contains(taps.precision))
                for index in 0..<target {
                    let run = taps.weights[table.taps(for: index).weights.indices].map(Int.init)
                    #expect(run.reduce(0, +) == 1 << taps.precision, "\(source) → \(target), \(filter), output \(index)")
                    let worstSum = run.map(abs).reduce(0, +) * magnitude + (1 << taps.precision)
                    #expect(worstSum <= Int(Int32.max), "\(source) → \(target), \(filter), output \(index)")
                }
            }
        }
    }

    @Test func aTableThatShrinksMoreGetsMoreFractionBits() {
        let precision = { (source: Int, target: Int) in
            WeightTable(source: source, target: target, filter: .lanczos3).fixedForBytes?.precision ?? 0
        }
        #expect(precision(100, 100) == 14) // a weight of 1 fits 2^14, not 2^15
        #expect(precision(2048, 512) > precision(100, 100))
        #expect(precision(6000, 256) > precision(2048, 512))
        #expect(precision(6000, 1) == FixedPointTaps.largestPrecision)
    }

    /// The resample in plain Swift integers, full height, in the resampler's order, with the same taps and
    /// shifts: the oracle of the band's bookkeeping and of the kernels' arithmetic (integers are exact).
    static func integerReference(_ image: PixelBuffer, to size: PixelSize, filter: ResamplingFilter) -> PixelBuffer? {
        let vertical = WeightTable(source: image.height, target: size.height, filter: filter)
        let horizontal = WeightTable(source: image.width, target: size.width, filter: filter)
        let verticalFirst = StreamingResampler(from: image.size, to: size, hasAlpha: false, filter: filter).order == .verticalFirst
        guard let plan = FixedPointPlan(vertical: vertical, horizontal: horizontal, verticalFirst: verticalFirst) else { return nil }
        func narrow(_ sum: Int, _ shift: Int) -> Int { min(max((sum + ((1 << shift) >> 1)) >> shift, -32_768), 32_767) }
        func verticalSum(_ y: Int, _ value: (Int) -> Int) -> Int {
            let taps = vertical.taps(for: y)
            return zip(taps.weights.indices, 0...).reduce(0) { $0 + Int(plan.vertical.weights[$1.0]) * value(taps.first + $1.1) }
        }
        func horizontalSum(_ x: Int, _ value: (Int) -> Int) -> Int {
            let taps = horizontal.taps(for: x)
            return zip(taps.weights.indices, 0...).reduce(0) { $0 + Int(plan.horizontal.weights[$1.0]) * value(taps.first + $1.1) }
        }
        let bytes = image.bytes
        func source(_ x: Int, _ y: Int, _ c: Int) -> Int { Int(bytes[y * image.bytesPerRow + x * 4 + c]) }
        var result = [UInt8](repeating: 255, count: size.pixelCount * 4)
        for c in 0..<3 {
            var final = [Int](repeating: 0, count: size.pixelCount)
            if verticalFirst {
                for y in 0..<size.height {
                    let middle = (0..<image.width).map { x in narrow(verticalSum(y) { source(x, $0, c) }, plan.verticalShift) }
                    for x in 0..<size.width { final[y * size.width + x] = narrow(horizontalSum(x) { middle[$0] }, plan.horizontalShift) }
                }
            } else {
                let middle = (0..<image.height).map { y in
                    (0..<size.width).map { x in narrow(horizontalSum(x) { source($0, y, c) }, plan.horizontalShift) }
                }
                for y in 0..<size.height {
                    for x in 0..<size.width { final[y * size.width + x] = narrow(verticalSum(y) { middle[$0][x] }, plan.verticalShift) }
                }
            }
            for index in final.indices {
                let bits = FixedPointPlan.fractionBits
                result[index * 4 + c] = UInt8(min(max((final[index] + (1 << (bits - 1))) >> bits, 0), 255))
            }
        }
        return PixelBuffer(width: size.width, height: size.height, hasAlpha: false, bytes: result)
    }

    @Test(arguments: [ResamplingFilter.lanczos3, .mitchell, .box])
    func theBandedFixedPointResampleEqualsAFullHeightIntegerResampleInPlainSwift(filter: ResamplingFilter) {
        let shapes = Self.shapes.filter { $0.0.pixelCount <= 20_000 } // the plain reference is slow
        #expect(shapes.contains { StreamingResampler(from: $0.0, to: $0.1, hasAlpha: false).order == .horizontalFirst })
        #expect(shapes.contains { StreamingResampler(from: $0.0, to: $0.1, hasAlpha: false).order == .verticalFirst })
        for (source, target) in shapes {
            let image = Self.noise(width: source.width, height: source.height, seed: 21)
            guard let reference = Self.integerReference(image, to: target, filter: filter) else {
                Issue.record("\(source) → \(target): no fixed-point plan")
                continue
            }
            #expect(Resampler.resize(image, to: target, filter: filter) == reference, "\(source) → \(target), \(filter)")
        }
    }

    /// A deterministic generator for the kernel comparisons.
    struct Generator {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
    }

    @Test func theAVX2KernelsGiveTheSameBytesAsThePlainOnes() {
        // On an AVX2 machine the first of each pair runs `_mm256_madd_epi16`; elsewhere both are the plain one.
        var random = Generator(state: 42)
        for round in 0..<200 {
            let width = random.next(1...45), taps = random.next(1...9), shift = random.next(0...16)
            // Weights whose absolute sum stays below 2^16, so sums of 16-bit inputs cannot overflow.
            let weights = (0..<taps).map { _ in Int16(random.next(-2_000...7_000)) }
            let bytes = (0..<taps).map { _ in (0..<(width * 4)).map { _ in UInt8(random.next(0...255)) } }
            let words = (0..<taps).map { _ in (0..<(width * 4)).map { _ in Int16(random.next(-32_768...32_767)) } }
            var inUse = [Int16](repeating: 0, count: width * 4), plain = inUse
            withRowPointers(bytes) { rows in
                wik_fixed_columns_u8(rows, weights, taps, width, Int32(shift), &inUse)
                wik_fixed_columns_u8_plain(rows, weights, taps, width, Int32(shift), &plain)
            }
            #expect(inUse == plain, "columns over bytes, round \(round)")
            withRowPointers(words) { rows in
                wik_fixed_columns_i16(rows, weights, taps, width * 4, Int32(shift), &inUse)
                wik_fixed_columns_i16_plain(rows, weights, taps, width * 4, Int32(shift), &plain)
            }
            #expect(inUse == plain, "columns over 16-bit values, round \(round)")
            let outputs = random.next(1...12)
            let counts = (0..<outputs).map { _ in random.next(1...min(width, 9)) }
            let firsts = counts.map { random.next(0...(width - $0)) }
            let offsets = (0..<outputs).map { $0 * 9 }
            let rowWeights = (0..<(outputs * 9)).map { _ in Int16(random.next(-2_000...7_000)) }
            var row = [Int16](repeating: 0, count: outputs * 4), rowPlain = row
            wik_fixed_row(words[0], firsts, counts, offsets, rowWeights, outputs, Int32(shift), &row)
            wik_fixed_row_plain(words[0], firsts, counts, offsets, rowWeights, outputs, Int32(shift), &rowPlain)
            #expect(row == rowPlain, "row, round \(round)")
        }
    }

    /// Calls `body` with a pointer to each of `rows`' storage.
    private func withRowPointers<Element>(_ rows: [[Element]], _ body: ([UnsafePointer<Element>?]) -> Void) {
        func nest(_ index: Int, _ pointers: [UnsafePointer<Element>?]) {
            guard index < rows.count else { return body(pointers) }
            rows[index].withUnsafeBufferPointer { nest(index + 1, pointers + [$0.baseAddress]) }
        }
        nest(0, [])
    }

    @Test func storingRoundsSixtyFourthsToTheNearestLevelAndClampsWithOpaqueAlpha() {
        let values: [Int16] = [-32_768, -33, -32, -31, 0, 31, 32, 95, 96, 16_319, 16_320, 16_351, 16_352, 32_767]
        let expected: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 1, 2, 255, 255, 255, 255, 255]
        var pixels: [Int16] = [], wanted: [UInt8] = []
        for (value, byte) in zip(values, expected) {
            pixels += [value, value, value, -7] // alpha's value is ignored
            wanted += [byte, byte, byte, 255]
        }
        var bytes = [UInt8](repeating: 0xAB, count: wanted.count + 4)
        wik_fixed_store_rgba8(pixels, values.count, Int32(FixedPointPlan.fractionBits), &bytes)
        #expect(Array(bytes[0..<wanted.count]) == wanted)
        #expect(bytes[wanted.count...].allSatisfy { $0 == 0xAB }, "nothing is written past the last pixel")
    }

    @Test func theVectorStoreGivesThePlainStoresBytes() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 3, 4, 5, 63, 257] {
            let pixels = (0..<count * 4).map { _ in Int16.random(in: .min ... .max, using: &generator) }
            var vector = [UInt8](repeating: 0, count: count * 4), plain = vector
            wik_fixed_store_rgba8(pixels, count, Int32(FixedPointPlan.fractionBits), &vector)
            wik_fixed_store_rgba8_plain(pixels, count, Int32(FixedPointPlan.fractionBits), &plain)
            #expect(vector == plain, "\(count) pixels")
        }
    }

    @Test(arguments: [ResamplingFilter.lanczos3, .mitchell, .box])
    func aWidthThatDoesNotChangeSkipsItsPassWithTheSameBytes(filter: ResamplingFilter) {
        for (source, target) in [(PixelSize(width: 100, height: 60), PixelSize(width: 100, height: 59)),
                                 (PixelSize(width: 37, height: 20), PixelSize(width: 37, height: 45)),
                                 (PixelSize(width: 1, height: 9), PixelSize(width: 1, height: 4))] {
            // Mitchell's filter blurs even at scale 1 (its weight at ±1 is 1/18): its pass runs, but for one column.
            let copies = filter != .mitchell || source.width == 1
            #expect(StreamingResampler(from: source, to: target, hasAlpha: false, filter: filter).skipsHorizontalPass == copies,
                    "\(source) → \(target)")
            let image = Self.noise(width: source.width, height: source.height, seed: 5)
            guard let reference = Self.integerReference(image, to: target, filter: filter) else {
                Issue.record("\(source) → \(target): no fixed-point plan")
                continue
            }
            #expect(Resampler.resize(image, to: target, filter: filter) == reference, "\(source) → \(target), \(filter)")
        }
        let resized = PixelSize(width: 99, height: 59), source = PixelSize(width: 100, height: 60)
        #expect(!StreamingResampler(from: source, to: resized, hasAlpha: false, filter: filter).skipsHorizontalPass)
        #expect(!StreamingResampler(from: source, to: PixelSize(width: 100, height: 59), hasAlpha: true, filter: filter).skipsHorizontalPass,
                "images with alpha run in float, every pass")
    }
}
