extension ImageTransformers {
    /// Rounds the corners, with an optional border along the rounded edge (SDWebImage's round-corner transformer).
    /// Edges are anti-aliased; the corners outside the radius become transparent.
    public struct RoundCorners: ImageTransforming {
        /// The corner radius in pixels (clamped to half the shorter side).
        public let radius: Double
        /// The border width in pixels; 0 for none.
        public let borderWidth: Double
        /// The border colour.
        public let borderColor: RGBA

        /// Creates a round-corner transformer.
        public init(radius: Double, borderWidth: Double = 0, borderColor: RGBA = .black) {
            self.radius = radius
            self.borderWidth = borderWidth
            self.borderColor = borderColor
        }

        public var transformerKey: String {
            "roundCorners(\(keyNumber(radius)),\(keyNumber(borderWidth)),\(borderColor.hexString))"
        }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            guard radius >= 0, borderWidth >= 0 else {
                throw ImageProcessingError(transformerKey: transformerKey, "radius and border width must not be negative")
            }
            let (w, h) = (Double(pixels.width), Double(pixels.height))
            let r = min(radius, min(w, h) / 2)
            let border = premultiplied(borderColor)
            let source = pixels
            return PixelBuffer(width: pixels.width, height: pixels.height, hasAlpha: true) { out in
                for y in 0..<source.height {
                    for x in 0..<source.width {
                        // Signed distance from the pixel centre to the rounded rectangle's edge (negative inside).
                        let px = Double(x) + 0.5, py = Double(y) + 0.5
                        let qx = abs(px - w / 2) - (w / 2 - r), qy = abs(py - h / 2) - (h / 2 - r)
                        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
                        let distance = outside + min(max(qx, qy), 0) - r
                        let coverage = Float(min(max(0.5 - distance, 0), 1))
                        var colour = premultiplied(source[x, y])
                        if borderWidth > 0 {
                            let inBorder = Float(min(max(distance + borderWidth + 0.5, 0), 1))
                            colour = colour * (1 - inBorder) + border * inBorder
                        }
                        storeStraight(colour * coverage, into: out, at: (y * source.width + x) * 4)
                    }
                }
            }
        }
    }
}
