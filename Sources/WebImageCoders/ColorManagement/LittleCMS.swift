import CLCMS2
import Foundation
import WebImageCore

/// The one file of the package that calls lcms2: opening ICC profiles, recognising sRGB, building transforms to
/// sRGB and making the profiles of colour given as code points (``CICPColor``). lcms2 never writes to stderr (no log handler is installed by default).
enum LittleCMS {
    /// lcms2 pixel formats, spelled out because Swift does not import lcms2's function-like `TYPE_*` macros.
    /// Bits: colour space << 16, flavour (inverted) << 13, extra channels << 7, channels << 3, bytes per sample.
    enum PixelFormat {
        /// RGBA, one byte each: the layout of every `PixelBuffer` (alpha is an extra channel lcms2 leaves alone).
        static let rgba: UInt32 = 4 << 16 | 1 << 7 | 3 << 3 | 1
        /// Grey in the first byte of an RGBA pixel (R = G = B), the other three bytes extra channels.
        static let grayInRGBA: UInt32 = 3 << 16 | 3 << 7 | 1 << 3 | 1
        /// CMYK as Adobe writes it in JPEG and as browsers read every CMYK JPEG: inverted (0 = full ink).
        static let invertedCMYK: UInt32 = 6 << 16 | 1 << 13 | 4 << 3 | 1
        /// CMYK as TIFF stores it (InkSet CMYK, 0 = no ink).
        static let cmyk: UInt32 = 6 << 16 | 4 << 3 | 1
    }

    /// The colour space an ICC profile describes (its header's data colour space).
    enum ProfileSpace: Sendable {
        case rgb, gray, cmyk, other
    }

    /// What a profile needs: nothing (it is sRGB), or a transform; `nil` when lcms2 cannot read it.
    static func makeTransform(profile: Data, inputFormat: UInt32) -> ColorTransform? {
        profile.withUnsafeBytes { bytes -> ColorTransform? in
            guard let base = bytes.baseAddress, bytes.count >= 132, bytes.count <= Int(UInt32.max),
                  let source = cmsOpenProfileFromMem(base, UInt32(bytes.count)) else { return nil }
            defer { cmsCloseProfile(source) }
            guard let srgb = cmsCreate_sRGBProfile() else { return nil }
            defer { cmsCloseProfile(srgb) }
            if inputFormat == PixelFormat.rgba, isSRGB(source, reference: srgb) { return .identity }
            if inputFormat == PixelFormat.rgba, let matrixShaper = MatrixShaperTransform(from: source, to: srgb) {
                return ColorTransform(matrixShaper)
            }
            guard let handle = cmsCreateTransform(
                source, inputFormat, srgb, PixelFormat.rgba, UInt32(INTENT_PERCEPTUAL), UInt32(cmsFLAGS_NOCACHE)
            ) else { return nil }
            return ColorTransform(handle: handle)
        }
    }

    /// The bytes of lcms2's built-in sRGB profile (what conversions target).
    static func builtInSRGBProfile() -> Data? {
        guard let srgb = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(srgb) }
        return bytes(of: srgb)
    }

    /// The bytes of an RGB matrix/TRC profile with these primaries and white point (CIE xy) and one tone curve for
    /// the three channels: lcms2's parametric curve `curveType` with `parameters` (1: a gamma; 4: sRGB's shape).
    static func rgbProfile(
        red: (x: Double, y: Double), green: (x: Double, y: Double), blue: (x: Double, y: Double),
        white: (x: Double, y: Double), curveType: Int32, parameters: [Double]
    ) -> Data? {
        guard let curve = cmsBuildParametricToneCurve(nil, curveType, parameters) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var whitePoint = cmsCIExyY(x: white.x, y: white.y, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.x, y: red.y, Y: 1), Green: cmsCIExyY(x: green.x, y: green.y, Y: 1),
            Blue: cmsCIExyY(x: blue.x, y: blue.y, Y: 1))
        let curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&whitePoint, &primaries, curves) else { return nil }
        defer { cmsCloseProfile(profile) }
        return bytes(of: profile)
    }

    /// A profile's ICC bytes.
    private static func bytes(of profile: cmsHPROFILE) -> Data? {
        var length: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0, length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        guard cmsSaveProfileToMem(profile, &bytes, &length) != 0 else { return nil }
        return Data(bytes[0..<Int(length)])
    }

    /// The colour space a profile declares, read from its header without lcms2 (bytes 16–19).
    static func space(of profile: Data) -> ProfileSpace {
        guard profile.count >= 20 else { return .other }
        let start = profile.startIndex + 16
        switch String(decoding: profile[start..<start + 4], as: UTF8.self) {
        case "RGB ": return .rgb
        case "GRAY": return .gray
        case "CMYK": return .cmyk
        default: return .other
        }
    }

    /// Whether a matrix/TRC RGB profile has sRGB's colorants and tone curves (within half a level of
    /// 8-bit output), so converting would change nothing that shows.
    private static func isSRGB(_ profile: cmsHPROFILE, reference: cmsHPROFILE) -> Bool {
        guard cmsGetColorSpace(profile) == cmsSigRgbData, cmsIsMatrixShaper(profile) != 0 else { return false }
        let colorants = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag]
        for tag in colorants {
            guard let own = cmsReadTag(profile, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee,
                  let srgb = cmsReadTag(reference, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee,
                  abs(own.X - srgb.X) < 0.002, abs(own.Y - srgb.Y) < 0.002, abs(own.Z - srgb.Z) < 0.002 else { return false }
        }
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let own = cmsReadTag(profile, tag).map({ OpaquePointer($0) }),
                  let srgb = cmsReadTag(reference, tag).map({ OpaquePointer($0) }) else { return false }
            for step in 0...32 {
                let x = Float(step) / 32
                if abs(cmsEvalToneCurveFloat(own, x) - cmsEvalToneCurveFloat(srgb, x)) > 0.5 / 255 { return false }
            }
        }
        return true
    }
}

/// A transform from one source profile to sRGB, shared by every decode that meets the profile.
///
/// lcms2 transforms built with `cmsFLAGS_NOCACHE` hold no mutable state, so one may run on many threads at once.
final class ColorTransform: @unchecked Sendable {
    /// The profile is sRGB already: nothing to do.
    static let identity = ColorTransform(handle: nil)

    private let handle: UnsafeMutableRawPointer?
    /// The faster path for RGB matrix/TRC profiles, used instead of an lcms2 transform.
    private let matrixShaper: MatrixShaperTransform?

    /// Takes ownership of an lcms2 transform; `nil` is the identity.
    fileprivate init(handle: UnsafeMutableRawPointer?) {
        self.handle = handle
        matrixShaper = nil
    }

    fileprivate init(_ matrixShaper: MatrixShaperTransform) {
        handle = nil
        self.matrixShaper = matrixShaper
    }

    deinit {
        if let handle { cmsDeleteTransform(handle) }
    }

    /// Whether applying this transform changes nothing.
    var isIdentity: Bool { handle == nil && matrixShaper == nil }

    /// Converts `count` four-byte pixels of `input` into `output` (RGBA; its alpha bytes are left as they are).
    func apply(_ input: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, count: Int) {
        if let matrixShaper {
            matrixShaper.apply(input, output, count: count)
            return
        }
        guard let handle, count > 0 else { return }
        // cmsDoTransform takes a 32-bit count: go in slices.
        var done = 0
        let slice = 1 << 20
        while done < count {
            let n = min(slice, count - done)
            cmsDoTransform(handle, input + done * 4, output + done * PixelBuffer.bytesPerPixel, UInt32(n))
            done += n
        }
    }
}
