/// The kernel a resampler weighs source pixels with.
public enum ResamplingFilter: String, Sendable, CaseIterable, Codable {
    /// Lanczos with three lobes: the sharpest, with slight ringing at hard edges. The default.
    case lanczos3
    /// Mitchell–Netravali cubic (B = C = 1/3): soft, almost no ringing.
    case mitchell
    /// Catmull–Rom cubic (B = 0, C = 1/2): sharp, a little ringing.
    case catmullRom
    /// Linear (tent): fast, blurrier.
    case bilinear
    /// Box: the mean of the covered pixels; fastest, blocky when enlarging.
    case box

    /// How far the kernel reaches, in source pixels at scale 1.
    var radius: Double {
        switch self {
        case .lanczos3: 3
        case .mitchell, .catmullRom: 2
        case .bilinear: 1
        case .box: 0.5
        }
    }

    /// The kernel's weight at distance `x`.
    func weight(_ x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .lanczos3:
            return x < 3 ? sinc(x) * sinc(x / 3) : 0
        case .mitchell:
            return cubic(x, b: 1.0 / 3, c: 1.0 / 3)
        case .catmullRom:
            return cubic(x, b: 0, c: 0.5)
        case .bilinear:
            return max(0, 1 - x)
        case .box:
            return x <= 0.5 ? 1 : 0
        }
    }

    private func sinc(_ x: Double) -> Double {
        guard x != 0 else { return 1 }
        let px = Double.pi * x
        return sin(px) / px
    }

    private func cubic(_ x: Double, b: Double, c: Double) -> Double {
        if x < 1 {
            return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6
        }
        if x < 2 {
            return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        }
        return 0
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
