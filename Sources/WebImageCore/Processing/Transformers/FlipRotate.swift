extension ImageTransformers {
    /// Mirrors the image horizontally, vertically or both (SDWebImage's flipping transformer).
    public struct Flip: ImageTransforming {
        /// Mirror left to right.
        public let horizontal: Bool
        /// Mirror top to bottom.
        public let vertical: Bool

        /// Creates a flip transformer.
        public init(horizontal: Bool = false, vertical: Bool = false) {
            self.horizontal = horizontal
            self.vertical = vertical
        }

        public var transformerKey: String { "flip(\(horizontal ? "h" : "")\(vertical ? "v" : ""))" }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            switch (horizontal, vertical) {
            case (true, true): pixels.applyingOrientation(.down)
            case (true, false): pixels.applyingOrientation(.upMirrored)
            case (false, true): pixels.applyingOrientation(.downMirrored)
            case (false, false): pixels
            }
        }
    }

    /// Rotates clockwise by an angle in degrees (SDWebImage's rotation transformer). Multiples of 90° are
    /// exact; other angles enlarge the canvas to hold the whole image and fill the corners with ``background``.
    public struct Rotate: ImageTransforming {
        /// The angle in degrees, clockwise.
        public let degrees: Double
        /// The colour of the uncovered corners for angles that are not multiples of 90°.
        public let background: RGBA
        /// The most pixels the enlarged canvas may have; a larger one fails with
        /// ``ImageProcessingError/Code/outputTooLarge`` before allocation (not part of ``transformerKey``).
        public let maximumPixelCount: Int

        /// Creates a rotation transformer.
        public init(
            degrees: Double, background: RGBA = .transparent,
            maximumPixelCount: Int = ImageDecodingOptions.defaultMaximumPixelCount
        ) {
            self.degrees = degrees
            self.background = background
            self.maximumPixelCount = maximumPixelCount
        }

        public var transformerKey: String { "rotate(\(keyNumber(degrees)),\(background.hexString))" }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            let turns = degrees / 90
            if turns == turns.rounded() {
                switch ((Int(turns) % 4) + 4) % 4 {
                case 1: return pixels.applyingOrientation(.right)
                case 2: return pixels.applyingOrientation(.down)
                case 3: return pixels.applyingOrientation(.left)
                default: return pixels
                }
            }
            return try rotatedFreely(pixels)
        }

        /// Inverse mapping with bilinear sampling on premultiplied colour.
        private func rotatedFreely(_ pixels: PixelBuffer) throws(ImageProcessingError) -> PixelBuffer {
            let radians = degrees * .pi / 180
            let (cosine, sine) = (cos(radians), sin(radians))
            let (w, h) = (Double(pixels.width), Double(pixels.height))
            let (width, height) = ((abs(w * cosine) + abs(h * sine)).rounded(.up), (abs(w * sine) + abs(h * cosine)).rounded(.up))
            try ImageProcessingError.checkOutputSize(
                width: width, height: height, limit: maximumPixelCount, transformerKey: transformerKey)
            let (outWidth, outHeight) = (Int(width), Int(height))
            let sampler = BilinearSampler(pixels)
            let background = premultiplied(self.background)
            let hasAlpha = pixels.hasAlpha || self.background.alpha != 255
            return PixelBuffer(width: outWidth, height: outHeight, hasAlpha: hasAlpha) { out in
                for y in 0..<outHeight {
                    let dy = Double(y) + 0.5 - Double(outHeight) / 2
                    for x in 0..<outWidth {
                        let dx = Double(x) + 0.5 - Double(outWidth) / 2
                        // Rotate the output position back into the source.
                        let sx = dx * cosine + dy * sine + w / 2 - 0.5
                        let sy = -dx * sine + dy * cosine + h / 2 - 0.5
                        let sample = sampler.sample(x: sx, y: sy, outside: background)
                        storeStraight(sample, into: out, at: (y * outWidth + x) * 4)
                    }
                }
            }
        }
    }

    /// Turns the pixels upright according to the image's EXIF orientation; the result says `.up`.
    public struct NormalizeOrientation: ImageTransforming {
        /// Creates the transformer.
        public init() {}

        public var transformerKey: String { "orientation(up)" }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer { pixels }

        public func transform(_ image: Image) throws -> Image { image.normalizedOrientation() }
    }
}

/// Samples a buffer between pixel centres, in premultiplied `Float` colour.
struct BilinearSampler {
    let pixels: PixelBuffer

    init(_ pixels: PixelBuffer) { self.pixels = pixels }

    func pixel(_ x: Int, _ y: Int, outside: SIMD4<Float>) -> SIMD4<Float> {
        guard x >= 0, y >= 0, x < pixels.width, y < pixels.height else { return outside }
        return premultiplied(pixels[x, y])
    }

    func sample(x: Double, y: Double, outside: SIMD4<Float>) -> SIMD4<Float> {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        guard x0 >= -1, y0 >= -1, x0 < pixels.width, y0 < pixels.height else { return outside }
        let fx = Float(x - Double(x0)), fy = Float(y - Double(y0))
        let top = pixel(x0, y0, outside: outside) * (1 - fx) + pixel(x0 + 1, y0, outside: outside) * fx
        let bottom = pixel(x0, y0 + 1, outside: outside) * (1 - fx) + pixel(x0 + 1, y0 + 1, outside: outside) * fx
        return top * (1 - fy) + bottom * fy
    }
}

/// A straight-alpha colour as premultiplied floats (0…255 per channel).
func premultiplied(_ colour: RGBA) -> SIMD4<Float> {
    let alpha = Float(colour.alpha) / 255
    return SIMD4(Float(colour.red) * alpha, Float(colour.green) * alpha, Float(colour.blue) * alpha, Float(colour.alpha))
}

/// Writes a premultiplied float colour as straight RGBA8 at `index`.
func storeStraight(_ colour: SIMD4<Float>, into out: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
    precondition(index >= 0 && index + 4 <= out.count, "storeStraight: the pixel is outside the buffer")
    guard let base = out.baseAddress else { return }
    Resampler.store(colour, premultiplied: true, to: base + index)
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
