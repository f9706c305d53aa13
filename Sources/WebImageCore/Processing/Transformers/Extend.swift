extension ImageTransformers {
    /// Places the image on a canvas of another size, filled with a colour (transparent by default): the
    /// padding of imgproxy's `extend` option and of libvips's `embed`.
    ///
    /// The image's top-left corner goes to (``x``, ``y``) of the canvas; what falls outside the canvas is
    /// dropped. The canvas is checked against ``maximumPixelCount`` before it is allocated.
    public struct Extend: ImageTransforming {
        /// The canvas width in pixels.
        public let width: Int
        /// The canvas height in pixels.
        public let height: Int
        /// Where the image's left edge lands on the canvas (may be negative).
        public let x: Int
        /// Where the image's top edge lands on the canvas (may be negative).
        public let y: Int
        /// The colour of the canvas where the image does not cover it.
        public let background: RGBA
        /// The most pixels the canvas may have; a larger one fails with
        /// ``ImageProcessingError/Code/outputTooLarge`` before allocation (not part of ``transformerKey``).
        public let maximumPixelCount: Int

        /// Creates an extending transformer.
        public init(
            width: Int, height: Int, x: Int, y: Int, background: RGBA = .transparent,
            maximumPixelCount: Int = ImageDecodingOptions.defaultMaximumPixelCount
        ) {
            self.width = width
            self.height = height
            self.x = x
            self.y = y
            self.background = background
            self.maximumPixelCount = maximumPixelCount
        }

        public var transformerKey: String { "extend(\(width)x\(height),\(x),\(y),\(background.hexString))" }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            guard width > 0, height > 0 else {
                throw ImageProcessingError(transformerKey: transformerKey, "the canvas must be at least 1×1")
            }
            try ImageProcessingError.checkOutputSize(
                width: Double(width), height: Double(height), limit: maximumPixelCount, transformerKey: transformerKey)
            if x == 0, y == 0, width == pixels.width, height == pixels.height { return pixels }
            let covered = x <= 0 && y <= 0 && x + pixels.width >= width && y + pixels.height >= height
            let hasAlpha = pixels.hasAlpha || (!covered && background.alpha != 255)
            let left = max(x, 0), right = min(x + pixels.width, width)
            let top = max(y, 0), bottom = min(y + pixels.height, height)
            let source = pixels.bytes, sourceWidth = pixels.width, canvasWidth = width, fill = background.packed
            return PixelBuffer(width: width, height: height, hasAlpha: hasAlpha) { out in
                UnsafeMutableRawBufferPointer(out).withMemoryRebound(to: UInt32.self) { canvas in
                    canvas.initialize(repeating: fill)
                    guard right > left, bottom > top else { return }
                    source.withUnsafeBytes { raw in
                        let image = raw.bindMemory(to: UInt32.self)
                        for row in top..<bottom {
                            let from = (row - y) * sourceWidth + (left - x), to = row * canvasWidth + left
                            for column in 0..<(right - left) { canvas[to + column] = image[from + column] }
                        }
                    }
                }
            }
        }
    }
}
