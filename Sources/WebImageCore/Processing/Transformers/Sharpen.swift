extension ImageTransformers {
    /// Sharpens with an unsharp mask shaped like libvips's `sharpen` (which imgproxy's `sharpen` option
    /// calls with only its sigma set).
    ///
    /// The luma of each pixel (Rec. 709 weights, 0–255) is blurred with a Gaussian of standard deviation
    /// ``sigma``; the difference `d` between a pixel's luma and the blurred luma goes through libvips's
    /// default response curve and the result is added to the red, green and blue channels alike, so hue
    /// is kept and alpha is untouched. The curve: no change where `|d|` is below the flat-area threshold
    /// (libvips's `x1` = 2 and `m1` = 0), slope 3 above it (`m2`), the brightening capped at 10 and the
    /// darkening at 20 (`y2`, `y3`). libvips measures these on L* (0–100); here they are scaled by 2.55
    /// to the 8-bit luma, which is where this differs from libvips (it sharpens L* in CIELAB).
    public struct Sharpen: ImageTransforming {
        /// The standard deviation of the Gaussian, in pixels.
        public let sigma: Double

        /// libvips's defaults, scaled from L* to 8-bit luma.
        static let flatThreshold: Float = 2 * 2.55
        static let slope: Float = 3
        static let maximumBrightening: Float = 10 * 2.55
        static let maximumDarkening: Float = 20 * 2.55

        /// Creates a sharpening transformer.
        public init(sigma: Double) { self.sigma = sigma }

        public var transformerKey: String { "sharpen(\(keyNumber(sigma)))" }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            guard sigma >= 0, sigma <= 1000 else {
                throw ImageProcessingError(transformerKey: transformerKey, "sigma must be between 0 and 1000")
            }
            guard sigma > 0, pixels.width > 0, pixels.height > 0 else { return pixels }
            let (width, height) = (pixels.width, pixels.height)
            let source = pixels.bytes
            var luma = [Float](repeating: 0, count: width * height)
            for index in 0..<luma.count {
                let byte = index * 4
                luma[index] = 0.2126 * Float(source[byte]) + 0.7152 * Float(source[byte + 1]) + 0.0722 * Float(source[byte + 2])
            }
            let kernel = Blur.kernel(sigma: sigma)
            let blurred = Self.convolve(Self.convolve(luma, width: width, height: height, kernel: kernel, horizontal: true),
                                        width: width, height: height, kernel: kernel, horizontal: false)
            return PixelBuffer(width: width, height: height, hasAlpha: pixels.hasAlpha) { out in
                for index in 0..<luma.count {
                    let change = Self.response(luma[index] - blurred[index])
                    let byte = index * 4
                    for channel in 0..<3 {
                        out[byte + channel] = UInt8(min(max(Float(source[byte + channel]) + change, 0), 255).rounded())
                    }
                    out[byte + 3] = source[byte + 3]
                }
            }
        }

        /// libvips's sharpening curve for a luma difference `d` (with `m1` = 0).
        static func response(_ difference: Float) -> Float {
            let magnitude = abs(difference)
            guard magnitude > flatThreshold else { return 0 }
            let change = (magnitude - flatThreshold) * slope
            return difference > 0 ? min(change, maximumBrightening) : -min(change, maximumDarkening)
        }

        /// One pass of a separable convolution over a single-channel plane; edges are extended.
        static func convolve(_ plane: [Float], width: Int, height: Int, kernel: [Float], horizontal: Bool) -> [Float] {
            let reach = kernel.count / 2
            var out = [Float](repeating: 0, count: plane.count)
            plane.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBufferPointer { out in
                    for y in 0..<height {
                        for x in 0..<width {
                            var sum: Float = 0
                            for (offset, weight) in kernel.enumerated() {
                                let delta = offset - reach
                                let sx = horizontal ? min(max(x + delta, 0), width - 1) : x
                                let sy = horizontal ? y : min(max(y + delta, 0), height - 1)
                                sum += source[sy * width + sx] * weight
                            }
                            out[y * width + x] = sum
                        }
                    }
                }
            }
            return out
        }
    }
}
