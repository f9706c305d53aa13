extension ImageTransformers {
    /// Tints the image with a colour, keeping its alpha (SDWebImage's tint transformer, "source atop"):
    /// each pixel becomes `tint × tintAlpha + pixel × (1 − tintAlpha)`.
    public struct Tint: ImageTransforming {
        /// The tint; its alpha sets the strength.
        public let color: RGBA

        /// Creates a tint transformer.
        public init(color: RGBA) { self.color = color }

        public var transformerKey: String { "tint(\(color.hexString))" }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            let strength = UInt32(color.alpha), keep = 255 - UInt32(color.alpha)
            let tint = (UInt32(color.red) * strength, UInt32(color.green) * strength, UInt32(color.blue) * strength)
            let source = pixels.bytes
            return PixelBuffer(width: pixels.width, height: pixels.height, hasAlpha: pixels.hasAlpha) { out in
                for index in stride(from: 0, to: source.count, by: 4) {
                    out[index] = UInt8((tint.0 + UInt32(source[index]) * keep + 127) / 255)
                    out[index + 1] = UInt8((tint.1 + UInt32(source[index + 1]) * keep + 127) / 255)
                    out[index + 2] = UInt8((tint.2 + UInt32(source[index + 2]) * keep + 127) / 255)
                    out[index + 3] = source[index + 3]
                }
            }
        }
    }
}
