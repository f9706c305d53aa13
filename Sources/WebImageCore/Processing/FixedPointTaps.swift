/// A weight table's taps as 16-bit integers for the fixed-point resampler (issue 33): each weight `w`
/// stored as `w · 2^precision` rounded to the nearest integer, each output's taps summing exactly to
/// `2^precision` (the rounding residue added to its largest tap), so a solid colour stays exactly that colour.
///
/// The precision is the largest (at most 22 bits) at which every weight fits `Int16` and no pass can
/// overflow its `Int32` sums: `Σ|weight| · inputMagnitude` stays below 2^31 for every output, where
/// `inputMagnitude` bounds the values the pass reads (255 for bytes, 32,768 for 16-bit intermediates).
/// A table that shrinks a lot has small weights, so it gets more fraction bits: its rounding error does
/// not grow with its tap count. The statistics below let ``FixedPointPlan`` bound the whole resample's error.
struct FixedPointTaps: Sendable {
    /// Fraction bits of the weights.
    let precision: Int
    /// One run of integer weights per output, at the same offsets as the table's `Float` weights.
    let weights: [Int16]
    /// The largest, over outputs, of `Σ |integer weight / 2^precision − weight|`.
    let roundingError: Double
    /// The largest, over outputs, of `Σ |integer weight| / 2^precision`: how much a pass can amplify an error.
    let absoluteSum: Double
    /// The largest, over outputs, of the positive integer weights' sum (divided by `2^precision`).
    let positiveSum: Double
    /// The largest, over outputs, of the negative integer weights' sum in magnitude (divided by `2^precision`).
    let negativeSum: Double
    /// The most taps of any output.
    let longestRun: Int

    /// The most fraction bits tried: beyond, a pass over bytes would risk overflowing.
    static let largestPrecision = 22

    /// Quantizes `weights` (runs of `counts[i]` from `offsets[i]`, each summing to about 1) for a pass reading
    /// values no larger than `inputMagnitude` in magnitude; nil if no precision of 8 bits or more fits.
    init?(weights: [Float], offsets: [Int], counts: [Int], inputMagnitude: Int) {
        precondition(inputMagnitude > 0, "FixedPointTaps: the input magnitude must be positive")
        let largest = weights.reduce(Float(0)) { max($0, abs($1)) }
        guard largest > 0, largest.isFinite else { return nil }
        var precision = min(Self.largestPrecision, Int(log2(Double(Int16.max) / Double(largest)).rounded(.down)))
        while precision >= 8 {
            if let taps = Self.quantized(weights, offsets: offsets, counts: counts, precision: precision,
                                         inputMagnitude: inputMagnitude) {
                self = taps
                return
            }
            precision -= 1
        }
        return nil
    }

    private init(precision: Int, weights: [Int16], roundingError: Double, absoluteSum: Double, positiveSum: Double,
                 negativeSum: Double, longestRun: Int) {
        self.precision = precision
        self.weights = weights
        self.roundingError = roundingError
        self.absoluteSum = absoluteSum
        self.positiveSum = positiveSum
        self.negativeSum = negativeSum
        self.longestRun = longestRun
    }

    /// The taps at `precision`, or nil if a weight does not fit `Int16` or a sum could overflow `Int32`.
    private static func quantized(_ weights: [Float], offsets: [Int], counts: [Int], precision: Int,
                                  inputMagnitude: Int) -> FixedPointTaps? {
        let scale = Double(1 << precision)
        // Every sum, plus the rounding half a pass adds before shifting, stays inside Int32.
        let largestSum = (Int(Int32.max) - (1 << precision)) / inputMagnitude
        var integers = [Int16](repeating: 0, count: weights.count)
        var roundingError = 0.0, absoluteSum = 0.0, positiveSum = 0.0, negativeSum = 0.0, longestRun = 0
        var rounded: [Int] = [] // one run at a time, its storage reused
        for (offset, count) in zip(offsets, counts) {
            let run = offset..<(offset + count)
            rounded.removeAll(keepingCapacity: true)
            rounded.append(contentsOf: run.lazy.map { Int((Double(weights[$0]) * scale).rounded()) })
            guard let largestTap = rounded.indices.max(by: { abs(rounded[$0]) < abs(rounded[$1]) }) else { continue }
            rounded[largestTap] += (1 << precision) - rounded.reduce(0, +) // the run sums to exactly 2^precision
            var error = 0.0, positive = 0, negative = 0
            for (index, value) in zip(run, rounded) {
                guard let integer = Int16(exactly: value) else { return nil }
                integers[index] = integer
                error += abs(Double(value) / scale - Double(weights[index]))
                if value > 0 { positive += value } else { negative -= value }
            }
            guard positive + negative <= largestSum else { return nil }
            roundingError = max(roundingError, error)
            absoluteSum = max(absoluteSum, Double(positive + negative) / scale)
            positiveSum = max(positiveSum, Double(positive) / scale)
            negativeSum = max(negativeSum, Double(negative) / scale)
            longestRun = max(longestRun, count)
        }
        return FixedPointTaps(precision: precision, weights: integers, roundingError: roundingError, absoluteSum: absoluteSum,
                              positiveSum: positiveSum, negativeSum: negativeSum, longestRun: longestRun)
    }
}

/// How an opaque resample runs in 16-bit fixed point, and the proof that it lands within one level of the
/// float path on every channel; nil where that cannot be shown (then the float path runs).
///
/// The first pass reads bytes and writes 16-bit values with ``fractionBits`` fraction bits; the second reads
/// those and writes 16-bit values with the same fraction bits, which ``wik_fixed_store_rgba8`` rounds to
/// bytes. The error bound adds, in levels: the first pass's weight rounding (bytes lie within 127.5 of
/// 127.5 and the rounding errors sum to zero), carried through the second pass; the intermediate's rounding;
/// the second pass's weight rounding over the intermediate's range; the second pass's own rounding; and the
/// float path's accumulated rounding (2^-24 of the largest partial sum per multiply and per add). If the
/// two results before their final rounding are less than one level apart, their bytes differ by at most
/// one. The bound must stay under 0.9; the margin covers the `Float` weights summing to 1 only within 2^-24
/// each. For Lanczos-3 that holds up to about 75× reduction in the second pass; beyond (say 6000 → 1) the
/// float path runs.
struct FixedPointPlan: Sendable {
    /// Fraction bits of the 16-bit intermediate: 64ths of a level. Values up to 511 levels fit, twice the
    /// range of bytes, which covers any filter whose positive weights sum to at most 2.
    static let fractionBits = 6

    /// The vertical table's integer taps.
    let vertical: FixedPointTaps
    /// The horizontal table's integer taps.
    let horizontal: FixedPointTaps
    /// The right shift after the vertical pass.
    let verticalShift: Int
    /// The right shift after the horizontal pass.
    let horizontalShift: Int
    /// The largest difference, in levels before the final rounding, between this path and the float path.
    let errorBound: Double

    /// The plan for `vertical` and `horizontal` run in the given order; nil if its error bound reaches 0.9.
    init?(vertical verticalTable: WeightTable, horizontal horizontalTable: WeightTable, verticalFirst: Bool) {
        let firstTable = verticalFirst ? verticalTable : horizontalTable
        let secondTable = verticalFirst ? horizontalTable : verticalTable
        guard let first = firstTable.fixedForBytes, let second = secondTable.fixedForWords else { return nil }
        let bits = Self.fractionBits
        // The intermediate never saturates: 255 × the weights' sums, in 64ths, fit Int16.
        guard 255 * max(first.positiveSum, first.negativeSum) * Double(1 << bits) <= Double(Int16.max) else { return nil }
        let rounding = 1 / Double(1 << (bits + 1)) // half a step of the intermediate
        let fixed = second.absoluteSum * (127.5 * first.roundingError + rounding)
            + 127.5 * (first.positiveSum + first.negativeSum) * second.roundingError
            + rounding
        let float = 255 * first.absoluteSum * second.absoluteSum * 2 * Double(first.longestRun + second.longestRun)
            / Double(1 << 24)
        errorBound = fixed + float
        guard errorBound < 0.9 else { return nil }
        vertical = verticalFirst ? first : second
        horizontal = verticalFirst ? second : first
        verticalShift = verticalFirst ? first.precision - bits : second.precision
        horizontalShift = verticalFirst ? second.precision : first.precision - bits
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
