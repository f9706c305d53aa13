import Foundation
import WebImageKit

/// The canvas of thumbor's `fill(blur)`: the image blurred as thumbor's `blur(50)` (a Gaussian of sigma 50
/// cut at 50 pixels, applied across then down, each pass truncated, with ``KernelConvolution``) and stretched
/// to the canvas (Lanczos-3, as thumbor's Pillow resizes).
///
/// Up to ``directPixelLimit`` pixels the blur is thumbor's, tap for tap (101 per pixel and pass). A larger
/// image is first shrunk to about that many pixels and blurred with the kernel shrunk by the same factor, so
/// the cost stays bounded; the result is stretched to the canvas either way, and a blur that wide leaves only
/// what the shrunk image still holds, so it stays within a few levels of the full-size blur.
struct FillBlurBackground: Sendable, Hashable {
    /// thumbor's blur radius and sigma for `fill(blur)`, in pixels of the image.
    static let radius = 50.0

    /// The most pixels blurred at full size.
    var directPixelLimit = 65_536

    /// The blurred image stretched to `canvas`.
    func background(for pixels: PixelBuffer, canvas: PixelSize) -> PixelBuffer {
        var image = pixels
        var radius = Self.radius
        let count = pixels.width * pixels.height
        if count > directPixelLimit {
            let scale = (Double(directPixelLimit) / Double(count)).squareRoot()
            let size = PixelSize(
                width: max(1, Int((Double(pixels.width) * scale).rounded())), height: max(1, Int((Double(pixels.height) * scale).rounded())))
            image = Resampler.resize(pixels, to: size)
            radius *= scale
        }
        let weights = Self.gaussian(radius: max(1, Int(radius.rounded())), sigma: radius)
        let across = KernelConvolution(weights: weights, columns: weights.count, rows: 1).apply(to: image)
        let blurred = KernelConvolution(weights: weights, columns: 1, rows: weights.count).apply(to: across)
        return Resampler.resize(blurred, to: canvas)
    }

    /// thumbor's `generate_1d_matrix(sigma, radius)`, normalised as its convolution normalises it: the Gaussian's
    /// values at −radius…radius (`e ** −(x² / 2σ²) / √(2σ²π)`, with Python's `**`, that is `pow`), divided by
    /// their sum.
    static func gaussian(radius: Int, sigma: Double) -> [Double] {
        let twoSigmaSquared = 2 * sigma * sigma
        let values = (-radius...radius).map { x in
            pow(M_E, -(Double(x * x) / twoSigmaSquared)) / (twoSigmaSquared * Double.pi).squareRoot()
        }
        let sum = values.reduce(0, +)
        return values.map { $0 / sum }
    }
}
