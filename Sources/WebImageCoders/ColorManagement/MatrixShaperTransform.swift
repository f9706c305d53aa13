import CLCMS2

/// The conversion from an RGB matrix/TRC profile (Display P3, Adobe RGB, ProPhoto: what cameras and
/// phones write) to sRGB, done without lcms2's per-pixel machinery: each channel through its tone curve
/// to linear light (a 256-entry table), one 3×3 matrix from the source primaries to sRGB's, clamped to
/// sRGB's gamut, then sRGB's inverse tone curve (a 16,384-entry table). This is the arithmetic lcms2
/// does for two matrix/TRC profiles under any intent but absolute colorimetric, in `Float` instead of
/// its 16-bit fixed point, at about a fifth of the time (lcms2's 8-bit path costs 11 ns a pixel here).
struct MatrixShaperTransform: Sendable {
    /// Entries of the output table: steps of 1/16,383 in linear light, where sRGB's steepest slope
    /// (12.92 near black) turns one step into 0.2 of an 8-bit level.
    static let outputSteps = 16_384

    /// Linear light of each 8-bit sample, per channel.
    private let red: [Float], green: [Float], blue: [Float]
    /// The matrix's columns: the sRGB linear light of pure source red, green and blue.
    private let columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    /// 8-bit sRGB of linear light `i / (outputSteps - 1)`.
    private let encode: [UInt8]

    /// The transform from `source` to `destination` (both RGB matrix/TRC profiles), or `nil` when a tag
    /// is missing or the destination's primaries are degenerate.
    init?(from source: cmsHPROFILE, to destination: cmsHPROFILE) {
        guard cmsIsMatrixShaper(source) != 0, cmsIsMatrixShaper(destination) != 0,
              cmsGetColorSpace(source) == cmsSigRgbData, cmsGetColorSpace(destination) == cmsSigRgbData,
              let sourcePrimaries = Self.primaries(of: source), let destinationPrimaries = Self.primaries(of: destination),
              let toDestination = Self.inverse(destinationPrimaries) else { return nil }
        let matrix = Self.product(toDestination, sourcePrimaries)
        columns = (SIMD4(Float(matrix[0][0]), Float(matrix[1][0]), Float(matrix[2][0]), 0),
                   SIMD4(Float(matrix[0][1]), Float(matrix[1][1]), Float(matrix[2][1]), 0),
                   SIMD4(Float(matrix[0][2]), Float(matrix[1][2]), Float(matrix[2][2]), 0))
        let curves = [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag].map { tag in
            cmsReadTag(source, tag).map { OpaquePointer($0) }
        }
        guard let redCurve = curves[0], let greenCurve = curves[1], let blueCurve = curves[2],
              let destinationCurve = cmsReadTag(destination, cmsSigGreenTRCTag).map({ OpaquePointer($0) }),
              let inverseCurve = cmsReverseToneCurve(destinationCurve) else { return nil }
        defer { cmsFreeToneCurve(inverseCurve) }
        func linear(_ curve: OpaquePointer) -> [Float] {
            (0..<256).map { cmsEvalToneCurveFloat(curve, Float($0) / 255) }
        }
        red = linear(redCurve)
        green = linear(greenCurve)
        blue = linear(blueCurve)
        encode = (0..<Self.outputSteps).map { step in
            let value = cmsEvalToneCurveFloat(inverseCurve, Float(step) / Float(Self.outputSteps - 1)) * 255
            return UInt8(max(0, min(255, value.rounded())))
        }
    }

    /// Converts `count` RGBA pixels of `input` into `output`, leaving the output's alpha bytes as they are.
    func apply(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, count: Int) {
        let source = input.assumingMemoryBound(to: UInt8.self), target = output.assumingMemoryBound(to: UInt8.self)
        let (r, g, b) = columns
        let scale = Float(Self.outputSteps - 1)
        red.withUnsafeBufferPointer { red in
            green.withUnsafeBufferPointer { green in
                blue.withUnsafeBufferPointer { blue in
                    encode.withUnsafeBufferPointer { encode in
                        for pixel in 0..<count {
                            let i = pixel &* 4
                            let mixed = r * red[Int(source[i])] + g * green[Int(source[i &+ 1])] + b * blue[Int(source[i &+ 2])]
                            // Clamped to 0…1 (out-of-gamut colours to sRGB's edge, as lcms2 clips), then to a table index.
                            var clamped = mixed
                            clamped.replace(with: 0, where: .!(mixed .> 0)) // NaN too
                            clamped.replace(with: 1, where: mixed .> 1)
                            // Adding 2²³ leaves the rounded index in the low bits of each float (as `Resampler.store`).
                            let index = unsafeBitCast(clamped * scale + 8_388_608, to: SIMD4<UInt32>.self) & 0x3FFF
                            target[i] = encode[Int(index.x)]
                            target[i &+ 1] = encode[Int(index.y)]
                            target[i &+ 2] = encode[Int(index.z)]
                        }
                    }
                }
            }
        }
    }

    /// The profile's colorants (D50 XYZ of pure red, green, blue) as the columns of a 3×3 matrix.
    private static func primaries(of profile: cmsHPROFILE) -> [[Double]]? {
        var columns: [cmsCIEXYZ] = []
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let xyz = cmsReadTag(profile, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee else { return nil }
            columns.append(xyz)
        }
        return [columns.map(\.X), columns.map(\.Y), columns.map(\.Z)]
    }

    private static func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<3).map { row in (0..<3).map { column in (0..<3).reduce(0) { $0 + a[row][$1] * b[$1][column] } } }
    }

    /// The inverse of a 3×3 matrix, `nil` when it is (nearly) singular.
    private static func inverse(_ m: [[Double]]) -> [[Double]]? {
        let cofactors = (0..<3).map { row in
            (0..<3).map { column -> Double in
                let rows = [0, 1, 2].filter { $0 != row }, columns = [0, 1, 2].filter { $0 != column }
                let minor = m[rows[0]][columns[0]] * m[rows[1]][columns[1]] - m[rows[0]][columns[1]] * m[rows[1]][columns[0]]
                return (row + column) % 2 == 0 ? minor : -minor
            }
        }
        let determinant = (0..<3).reduce(0) { $0 + m[0][$1] * cofactors[0][$1] }
        guard abs(determinant) > 1e-9 else { return nil }
        return (0..<3).map { row in (0..<3).map { column in cofactors[column][row] / determinant } }
    }
}
