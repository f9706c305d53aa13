import WebImageKit

/// imgproxy's `blur` (a Gaussian of standard deviation ``sigma``) at a cost that does not grow with sigma.
///
/// Up to ``directLimit`` the Gaussian is applied directly (``ImageTransformers/Blur``, whose kernel,
/// and so whose cost per pixel, grows with sigma). Above it, the image is shrunk with the resampler so
/// that the blur left to do has a sigma of ``reducedSigma``, blurred, and enlarged back to its size: a
/// Gaussian that wide leaves only frequencies the shrunk image still holds, so the result stays within
/// a few levels of the direct blur, and a `bl:1000` costs what a `bl:8` does.
struct WideBlur: Sendable, Hashable {
    /// The largest sigma blurred directly.
    static let directLimit = 8.0
    /// The sigma of the blur of the shrunk image.
    static let reducedSigma = 4.0

    /// The standard deviation, in pixels of the image given to ``transform(pixels:)``.
    let sigma: Double

    /// The blurred pixels, of the same size.
    func transform(pixels: PixelBuffer) throws -> PixelBuffer {
        guard sigma > Self.directLimit else { return try ImageTransformers.Blur(radius: sigma).transform(pixels: pixels) }
        let scale = Self.reducedSigma / sigma
        let small = PixelSize(
            width: max(1, Int((Double(pixels.width) * scale).rounded())),
            height: max(1, Int((Double(pixels.height) * scale).rounded())))
        let shrunk = Resampler.resize(pixels, to: small)
        let blurred = try ImageTransformers.Blur(radius: Self.reducedSigma).transform(pixels: shrunk)
        return Resampler.resize(blurred, to: pixels.size)
    }
}
