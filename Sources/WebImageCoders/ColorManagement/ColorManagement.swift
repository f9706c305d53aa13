import Foundation
import WebImageCore

/// Brings decoded pixels with an embedded ICC profile to sRGB, the colour space every `PixelBuffer`
/// is in (or, with `ImageDecodingOptions.keepsColorProfile`, hands the profile with the image instead).
///
/// Each decoder extracts its file's profile and calls ``finish(_:profile:sourceIsGray:options:)`` on
/// the image it built, so a thumbnail converts only its own pixels. The rendering intent is perceptual
/// (lcms2's and `jpgicc`'s default; matrix/TRC profiles treat it as relative colorimetric), without
/// black-point compensation. A profile lcms2 cannot read, or one whose colour space does not match the
/// pixels (a CMYK profile in an RGB file), is ignored, as browsers do.
enum ColorManagement {
    /// The largest profile accepted (JPEG can carry at most 255 × 65,519 bytes of profile).
    static let maximumProfileSize = 16 << 20

    /// The image with its pixels converted from `profile` to sRGB, or carrying `profile` when the
    /// options keep colour profiles. `sourceIsGray`: the file stores grey samples (now R = G = B),
    /// so a grey profile applies.
    static func finish(_ image: Image, profile: Data?, sourceIsGray: Bool = false, options: ImageDecodingOptions) -> Image {
        guard let profile, !profile.isEmpty, profile.count <= maximumProfileSize else { return image }
        if options.keepsColorProfile { return image.with(iccProfile: .some(profile)) }
        let inputFormat: UInt32
        switch LittleCMS.space(of: profile) {
        case .rgb: inputFormat = LittleCMS.PixelFormat.rgba
        case .gray where sourceIsGray: inputFormat = LittleCMS.PixelFormat.grayInRGBA
        default: return image
        }
        guard let transform = ColorTransformCache.shared.transform(for: profile, inputFormat: inputFormat),
              !transform.isIdentity else { return image }
        let frames = image.frames.map { frame in
            ImageFrame(pixels: convert(frame.pixels, with: transform), duration: frame.duration)
        }
        return Image(
            frames: frames, format: image.format, scale: image.scale, orientation: image.orientation,
            loopCount: image.loopCount, data: image.data, metadata: image.metadata, issues: image.issues
        )
    }

    /// A copy of `pixels` converted through `transform` (alpha kept).
    static func convert(_ pixels: PixelBuffer, with transform: ColorTransform) -> PixelBuffer {
        pixels.withUnsafeBytes { input in
            PixelBuffer(width: pixels.width, height: pixels.height, hasAlpha: pixels.hasAlpha) { output in
                guard let source = input.baseAddress, let target = output.baseAddress else { return }
                target.update(from: source.assumingMemoryBound(to: UInt8.self), count: output.count)
                transform.apply(source, UnsafeMutableRawPointer(target), count: pixels.width * pixels.height)
            }
        }
    }

    /// RGBA pixels from CMYK samples (four bytes a pixel) converted through `profile`; `inverted` for
    /// Adobe-style inks (0 = full ink, as in JPEG). `nil` when the profile is not a CMYK profile lcms2 can use.
    static func rgba(
        fromCMYK cmyk: UnsafeRawBufferPointer, width: Int, height: Int, profile: Data, inverted: Bool
    ) -> PixelBuffer? {
        guard LittleCMS.space(of: profile) == .cmyk, profile.count <= maximumProfileSize, cmyk.count >= width * height * 4,
              let source = cmyk.baseAddress else { return nil }
        let format = inverted ? LittleCMS.PixelFormat.invertedCMYK : LittleCMS.PixelFormat.cmyk
        guard let transform = ColorTransformCache.shared.transform(for: profile, inputFormat: format),
              !transform.isIdentity else { return nil }
        return PixelBuffer(width: width, height: height, hasAlpha: false) { output in
            guard let target = output.baseAddress else { return }
            output.update(repeating: 255)
            transform.apply(source, UnsafeMutableRawPointer(target), count: width * height)
        }
    }
}

extension Image {
    /// A copy with the pixels converted from ``iccProfile`` to sRGB and no profile, as decoding without
    /// `ImageDecodingOptions.keepsColorProfile` would have made them; `self` when it has no profile.
    package func convertedToSRGB() -> Image {
        guard let profile = iccProfile else { return self }
        return ColorManagement.finish(with(iccProfile: .some(nil)), profile: profile, options: ImageDecodingOptions())
    }
}
