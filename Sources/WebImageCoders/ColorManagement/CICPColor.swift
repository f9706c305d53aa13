import Foundation

/// Colour given as code points (ITU-T H.273, "CICP") instead of an ICC profile: an AVIF's `colr` box of type
/// `nclx`, or its AV1 sequence header. The decoders convert it to sRGB through the ICC path, with a profile made
/// from the code points, as browsers show such images.
///
/// Converted: the primaries of BT.2020, Display P3 (SMPTE EG 432), DCI-P3 (SMPTE RP 431), BT.601 (BT.470 BG, SMPTE
/// 170M and 240M), BT.470 M and EBU 3213, with sRGB's tone curve (also for BT.709's and BT.2020's transfers and an
/// unspecified one, as browsers show stills) or a gamma of 2.2, 2.8 or 1 (linear). Left as they are: BT.709 (sRGB's
/// primaries) with an sRGB-like curve, unspecified primaries, and HDR transfers (PQ, HLG), which need tone mapping
/// this library does not do.
struct CICPColor: Sendable, Equatable {
    /// `colour_primaries` (H.273 table 2).
    var primaries: UInt16
    /// `transfer_characteristics` (H.273 table 3).
    var transfer: UInt16

    /// An ICC profile that describes the code points, or `nil` when they are sRGB (or unspecified), or HDR, or
    /// code points this does not know.
    func iccProfile() -> Data? {
        guard let curve = toneCurve, let chromaticities = primaryChromaticities else { return nil }
        if chromaticities == nil, curve.isSRGB { return nil }  // sRGB already
        let (red, green, blue, white) = chromaticities ?? Self.bt709
        return LittleCMS.rgbProfile(red: red, green: green, blue: blue, white: white, curveType: curve.type, parameters: curve.parameters)
    }

    private typealias Point = (x: Double, y: Double)
    private typealias Chromaticities = (red: Point, green: Point, blue: Point, white: Point)
    private static let d65: Point = (0.3127, 0.3290)
    private static let bt709: Chromaticities = ((0.640, 0.330), (0.300, 0.600), (0.150, 0.060), d65)

    /// The primaries and white point; `.some(nil)` for sRGB's (BT.709) or unspecified ones, `nil` for unknown code points.
    private var primaryChromaticities: Chromaticities?? {
        switch primaries {
        case 1, 2: .some(nil)
        case 4: .some(((0.670, 0.330), (0.210, 0.710), (0.140, 0.080), (0.310, 0.316)))
        case 5: .some(((0.640, 0.330), (0.290, 0.600), (0.150, 0.060), Self.d65))
        case 6, 7: .some(((0.630, 0.340), (0.310, 0.595), (0.155, 0.070), Self.d65))
        case 9: .some(((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), Self.d65))
        case 11: .some(((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.314, 0.351)))
        case 12: .some(((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), Self.d65))
        case 22: .some(((0.630, 0.340), (0.295, 0.605), (0.155, 0.077), Self.d65))
        default: nil
        }
    }

    private struct ToneCurve {
        var type: Int32
        var parameters: [Double]
        var isSRGB: Bool { type == 4 }
    }

    /// lcms2's parametric curve for the transfer; `nil` for HDR transfers and unknown code points.
    private var toneCurve: ToneCurve? {
        switch transfer {
        case 1, 2, 6, 13, 14, 15: ToneCurve(type: 4, parameters: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        case 4: ToneCurve(type: 1, parameters: [2.2])
        case 5: ToneCurve(type: 1, parameters: [2.8])
        case 8: ToneCurve(type: 1, parameters: [1])
        default: nil
        }
    }
}
