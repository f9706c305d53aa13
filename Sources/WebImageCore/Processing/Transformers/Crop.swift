extension ImageTransformers {
    /// Crops to a rectangle in pixels; the part outside the image is dropped (SDWebImage's cropping transformer).
    public struct Crop: ImageTransforming {
        /// The left edge, in pixels.
        public let x: Int
        /// The top edge, in pixels.
        public let y: Int
        /// The width, in pixels.
        public let width: Int
        /// The height, in pixels.
        public let height: Int

        /// Creates a crop transformer.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        public var transformerKey: String { "crop(\(x),\(y),\(width)x\(height))" }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            let left = max(x, 0), top = max(y, 0)
            let right = min(x + width, pixels.width), bottom = min(y + height, pixels.height)
            guard width > 0, height > 0, right > left, bottom > top else {
                throw ImageProcessingError(transformerKey: transformerKey, "the rectangle does not overlap the \(pixels.size) image")
            }
            return pixels.cropped(x: left, y: top, width: right - left, height: bottom - top)
        }
    }
}
