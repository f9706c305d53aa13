import Foundation
import WebImageKit

/// thumbor's `round_corner(a|b, r, g, b[, transparent])`: the four corners outside an ellipse of radii
/// `a` × `b` painted with the colour (or, transparent, the colour with alpha 0), the edge anti-aliased.
///
/// A line-by-line port of thumbor's `_round_corner.c` (radii clamped to half the sides; rows of each corner
/// filled to the ellipse, then blended over the few pixels where the ellipse crosses a row or a column, with
/// its `Float` arithmetic and truncations), so its pixels are thumbor's; including its quirks: the right
/// corners are one pixel narrower than the left ones, and the blend in transparent mode darkens the colour
/// instead of lowering alpha. A radius of 0 (after clamping) leaves the image as it is, where thumbor's C
/// divides by zero. It works on straight colour, as thumbor does: a point operation, nothing is filtered.
struct CornerRounding: Sendable, Hashable {
    /// The share of the colour the blended pixels take at most.
    fileprivate static let blendAmount: Float = 0.75

    /// The corners to paint.
    let corner: PixelFilter.RoundCorner

    /// The same pixels with the corners painted; alpha is added when ``PixelFilter/RoundCorner/transparent``.
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        let width = pixels.width, height = pixels.height
        let aRadius = min(corner.horizontalRadius, width / 2), bRadius = min(corner.verticalRadius, height / 2)
        guard aRadius > 0, bRadius > 0 else { return pixels }
        var painter = Painter(
            bytes: pixels.bytes, width: width, height: height,
            color: (Float(corner.color.red), Float(corner.color.green), Float(corner.color.blue)), transparent: corner.transparent)
        painter.paintRows(a: Float(aRadius), b: Float(bRadius))
        painter.blendColumns(a: Float(aRadius), b: Float(bRadius))
        return PixelBuffer(width: width, height: height, hasAlpha: pixels.hasAlpha || corner.transparent, bytes: painter.bytes)
    }

    /// The C code's state: the bytes, addressed by pixel index (`row × width + column`, which, as in C, runs
    /// into the next row when the column is `width`).
    private struct Painter {
        var bytes: [UInt8]
        let width: Int
        let height: Int
        let color: (Float, Float, Float)
        let transparent: Bool

        /// The first loop of the C: for each row `y` of the ellipse's quarter, the pixels outside it painted,
        /// then the pixels where it crosses the row blended.
        mutating func paintRows(a: Float, b: Float) {
            var y = 0
            while Float(y) <= b {
                let x = Float(-(Double(a) * Double(b * b - Float(y * y)).squareRoot()) / Double(b))
                let yTop = Int(b - Float(y)), yBottom = Int(Float(height) - b + Float(y) - 1)
                let endX = Int(x + a)
                for column in 0..<max(endX, 0) {
                    paint(yTop * width + column)
                    paint(yBottom * width + column)
                    if column > 0 {
                        paint(yTop * width + width - column)
                        paint(yBottom * width + width - column)
                    }
                }
                var count = 0
                var aaX = Int(x - 1)
                while Float(aaX) >= -a {
                    let aaY = Int(Float(Double(b) * Double(a * a - Float(aaX * aaX)).squareRoot() / Double(a) + 1))
                    if aaY != y { break }
                    count += 1
                    aaX -= 1
                }
                aaX = Int(x - Float(count))
                if Float(aaX) < -a { aaX += 1 }
                let sources = [yTop * width + endX, yBottom * width + endX, yTop * width + width - endX, yBottom * width + width - endX]
                var index = 1
                while Float(aaX) < x {
                    let column = Int(Float(aaX) + a)
                    let targets = [yTop * width + column, yBottom * width + column, yTop * width + width - column, yBottom * width + width - column]
                    blend(targets, from: sources, amount: 1 - Float(index) / Float(count) * CornerRounding.blendAmount)
                    aaX += 1
                    index += 1
                }
                y += 1
            }
        }

        /// The second loop of the C: for each column `x` of the quarter, the pixels where the ellipse crosses
        /// the column blended.
        mutating func blendColumns(a: Float, b: Float) {
            var x: Float = 0
            while x >= -a {
                let y = Float(Double(b) * Double(a * a - x * x).squareRoot() / Double(a))
                var count = 0
                var aaY = Int(y + 1)
                while Float(aaY) < b {
                    let aaX = Int(Float(-(Double(a) * Double(b * b - Float(aaY * aaY)).squareRoot() / Double(b)) - 1))
                    if aaX != Int(x) { break }
                    count += 1
                    aaY += 1
                }
                let endX = Int(x + a), yTop = Int(b - y), yBottom = Int(Float(height) - b + y - 1)
                let sources = [yTop * width + endX, yBottom * width + endX, yTop * width + width - endX, yBottom * width + width - endX]
                let leftX = Int(x + a), rightX = Int(Float(width) - a - x)
                aaY = Int(y + Float(count))
                if Float(aaY) > b { aaY -= 1 }
                var index = 1
                while Float(aaY) > y {
                    let top = Int((b - Float(aaY)) * Float(width)), bottom = Int((Float(height) - b + Float(aaY) - 1) * Float(width))
                    blend([top + leftX, bottom + leftX, top + rightX, bottom + rightX], from: sources,
                          amount: 1 - Float(index) / Float(count) * CornerRounding.blendAmount)
                    aaY -= 1
                    index += 1
                }
                x -= 1
            }
        }

        /// Paints the pixel at `pixel` with the colour (and alpha 0 when transparent); nothing outside the image.
        mutating func paint(_ pixel: Int) {
            guard pixel >= 0, pixel < width * height else { return }
            let offset = pixel * 4
            bytes[offset] = UInt8(color.0)
            bytes[offset + 1] = UInt8(color.1)
            bytes[offset + 2] = UInt8(color.2)
            if transparent { bytes[offset + 3] = 0 }
        }

        /// Each target pixel, in order, set to its source pixel's colour times `1 − amount` plus the colour times
        /// `amount` (transparent: without the colour), channel by channel, reading each source byte just before
        /// the write, as the C does.
        mutating func blend(_ targets: [Int], from sources: [Int], amount: Float) {
            let count = width * height
            for (target, source) in zip(targets, sources) where target >= 0 && target < count && source >= 0 && source < count {
                let paint = transparent ? (Float(0), Float(0), Float(0)) : color
                bytes[target * 4] = Self.byte(Float(bytes[source * 4]) * (1 - amount) + paint.0 * amount)
                bytes[target * 4 + 1] = Self.byte(Float(bytes[source * 4 + 1]) * (1 - amount) + paint.1 * amount)
                bytes[target * 4 + 2] = Self.byte(Float(bytes[source * 4 + 2]) * (1 - amount) + paint.2 * amount)
            }
        }

        /// A blended value stored as C stores a float in an `unsigned char`: truncated (clamped, to stay defined).
        static func byte(_ value: Float) -> UInt8 {
            value.isNaN ? 0 : UInt8(min(max(value, 0), 255).rounded(.towardZero))
        }
    }
}
