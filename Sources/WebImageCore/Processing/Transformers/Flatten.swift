extension ImageTransformers {
    /// Composites the image over an opaque colour and drops the alpha channel: what an encoder without
    /// alpha (JPEG) needs, and what imgproxy's `background` option does to every output format.
    ///
    /// Each pixel becomes `colour × alpha + background × (1 − alpha)`, opaque. The background's own
    /// alpha is ignored (it is always painted opaque). An image without alpha is returned unchanged.
    public struct Flatten: ImageTransforming {
        /// The colour transparent areas show.
        public let background: RGBA

        /// Creates a flattening transformer.
        public init(background: RGBA) { self.background = background }

        public var transformerKey: String {
            "flatten(\(RGBA(red: background.red, green: background.green, blue: background.blue).hexString))"
        }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            flattened(pixels)
        }

        /// ``transform(pixels:)``, which cannot fail, for callers that are not generic over transformers.
        package func flattened(_ pixels: PixelBuffer) -> PixelBuffer {
            guard pixels.hasAlpha else { return pixels }
            let source = pixels.bytes
            let back = (UInt32(background.red), UInt32(background.green), UInt32(background.blue))
            return PixelBuffer(width: pixels.width, height: pixels.height, hasAlpha: false) { out in
                for index in stride(from: 0, to: source.count, by: 4) {
                    let alpha = UInt32(source[index + 3]), rest = 255 - alpha
                    out[index] = UInt8((UInt32(source[index]) * alpha + back.0 * rest + 127) / 255)
                    out[index + 1] = UInt8((UInt32(source[index + 1]) * alpha + back.1 * rest + 127) / 255)
                    out[index + 2] = UInt8((UInt32(source[index + 2]) * alpha + back.2 * rest + 127) / 255)
                    out[index + 3] = 255
                }
            }
        }
    }
}
