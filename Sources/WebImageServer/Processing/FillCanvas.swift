import WebImageKit

/// thumbor's `fill(auto)` and `fill(blur)`: the image on a canvas of the requested size, at
/// `⌊(canvas − image) / 2⌋` on each axis (a larger image is cut), the canvas showing the image's average colour
/// (`auto`) or a blurred copy of the image stretched to it (`blur`, ``FillBlurBackground``).
///
/// The average is thumbor's (its filter calls it the median): the sums of the red, green and blue bytes of
/// every pixel, transparent ones included, divided by the pixel count (integer division). The image replaces
/// the canvas where it lies, alpha included (Pillow's `paste`), unless ``PixelFilter/Fill/mergesTransparency``,
/// where it is composited over the canvas with thumbor's `_composite.c` arithmetic.
struct FillCanvas: Sendable, Hashable {
    /// What fills the canvas.
    let fill: PixelFilter.Fill
    /// The canvas size; the caller has checked it against the limits.
    let canvas: PixelSize
    /// How `blur` is computed.
    var blur = FillBlurBackground()

    /// The image on the filled canvas.
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        guard pixels.width > 0, pixels.height > 0, canvas.width > 0, canvas.height > 0 else { return pixels }
        let background: PixelBuffer
        switch fill.background {
        case .average: background = PixelBuffer(width: canvas.width, height: canvas.height, fill: Self.averageColour(of: pixels))
        case .blur: background = blur.background(for: pixels, canvas: canvas)
        }
        var bytes = background.bytes
        let left = Self.halfFloor(canvas.width - pixels.width), top = Self.halfFloor(canvas.height - pixels.height)
        pixels.withUnsafeBytes { source in
            for y in max(0, -top)..<min(pixels.height, canvas.height - top) {
                for x in max(0, -left)..<min(pixels.width, canvas.width - left) {
                    let from = (y * pixels.width + x) * 4, to = ((y + top) * canvas.width + x + left) * 4
                    if fill.mergesTransparency {
                        Self.composite(source, from, over: &bytes, to)
                    } else {
                        for channel in 0..<4 { bytes[to + channel] = source[from + channel] }
                    }
                }
            }
        }
        let opaque = !pixels.hasAlpha || (fill.mergesTransparency && !background.hasAlpha)
        return PixelBuffer(width: canvas.width, height: canvas.height, hasAlpha: !opaque, bytes: bytes)
    }

    /// `value / 2` rounded down, as Python's `//`.
    static func halfFloor(_ value: Int) -> Int { value >= 0 ? value / 2 : -((1 - value) / 2) }

    /// thumbor's "auto" colour: each channel's mean over all pixels, rounded down; opaque.
    static func averageColour(of pixels: PixelBuffer) -> RGBA {
        var sums = (0, 0, 0)
        pixels.withUnsafeBytes { bytes in
            for index in stride(from: 0, to: bytes.count, by: 4) {
                sums.0 += Int(bytes[index]); sums.1 += Int(bytes[index + 1]); sums.2 += Int(bytes[index + 2])
            }
        }
        let count = max(1, pixels.width * pixels.height)
        return RGBA(red: UInt8(sums.0 / count), green: UInt8(sums.1 / count), blue: UInt8(sums.2 / count))
    }

    /// The source pixel at `from` over the canvas pixel at `to`, as thumbor's `_composite.c` merges them
    /// (straight alpha "over", in `Double`, truncated).
    static func composite(_ source: UnsafeRawBufferPointer, _ from: Int, over canvas: inout [UInt8], _ to: Int) {
        let topClear = (255 - Double(source[from + 3])) / 255, bottomClear = (255 - Double(canvas[to + 3])) / 255
        let clear = topClear * bottomClear
        let scale = 1 - clear <= 1e-12 ? 1 : 1 / (1 - clear)
        for channel in 0..<3 {
            let top = Double(source[from + channel]), bottom = Double(canvas[to + channel])
            canvas[to + channel] = UInt8(truncatingColour: scale * ((1 - topClear) * top + (1 - bottomClear) * bottom * topClear))
        }
        canvas[to + 3] = UInt8(truncatingColour: 255 - 255 * clear)
    }
}
