extension ImageTransformers {
    /// Gaussian blur (SDWebImage's blur transformer), separable, on premultiplied colour so transparent
    /// areas do not darken the edges. The kernel reaches three standard deviations; edges are extended.
    public struct Blur: ImageTransforming {
        /// The blur radius in pixels, taken as the standard deviation σ of the Gaussian.
        public let radius: Double

        /// Creates a blur transformer.
        public init(radius: Double) { self.radius = radius }

        public var transformerKey: String { "blur(\(keyNumber(radius)))" }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            guard radius >= 0, radius <= 1000 else {
                throw ImageProcessingError(transformerKey: transformerKey, "the radius must be between 0 and 1000")
            }
            guard radius > 0 else { return pixels }
            let kernel = Self.kernel(sigma: radius)
            var plane = pixels.premultipliedPlane()
            plane = Self.convolve(plane, width: pixels.width, height: pixels.height, kernel: kernel, horizontal: true)
            plane = Self.convolve(plane, width: pixels.width, height: pixels.height, kernel: kernel, horizontal: false)
            return PixelBuffer(width: pixels.width, height: pixels.height, hasAlpha: pixels.hasAlpha) { out in
                for index in 0..<plane.count { storeStraight(plane[index], into: out, at: index * 4) }
            }
        }

        static func kernel(sigma: Double) -> [Float] {
            let reach = Int((sigma * 3).rounded(.up))
            let weights = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let total = weights.reduce(0, +)
            return weights.map { Float($0 / total) }
        }

        static func convolve(_ plane: [SIMD4<Float>], width: Int, height: Int, kernel: [Float], horizontal: Bool) -> [SIMD4<Float>] {
            let reach = kernel.count / 2
            var out = [SIMD4<Float>](repeating: .zero, count: plane.count)
            plane.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBufferPointer { out in
                    for y in 0..<height {
                        for x in 0..<width {
                            var sum = SIMD4<Float>.zero
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

extension PixelBuffer {
    /// The pixels as premultiplied `Float` colour, one `SIMD4` per pixel.
    func premultipliedPlane() -> [SIMD4<Float>] {
        var plane = [SIMD4<Float>](repeating: .zero, count: width * height)
        for y in 0..<height { for x in 0..<width { plane[y * width + x] = premultiplied(self[x, y]) } }
        return plane
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
