import WebImageKit

/// A clockwise rotation by a multiple of 90° (imgproxy's `rotate` option), and how sizes and rectangles
/// measured in the rotated image map back to the image before rotation.
///
/// imgproxy measures every requested size (resize, crop) in the rotated image but rotates after resizing,
/// so the processing plans in the rotated frame and cuts and resizes the upright source through this map.
struct QuarterTurn: Sendable, Hashable {
    /// 0, 1, 2 or 3 quarter turns clockwise.
    let quarters: Int

    /// The turn for `degrees` (a multiple of 90, any sign).
    init(degrees: Int) {
        quarters = ((degrees / 90) % 4 + 4) % 4
    }

    /// Whether the rotation swaps width and height.
    var swapsDimensions: Bool { quarters % 2 == 1 }

    /// `size` rotated, or a rotated size turned back: the same swap either way.
    func turned(_ size: PixelSize) -> PixelSize {
        swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
    }

    /// The pixels rotated (exactly, no resampling).
    func apply(to pixels: PixelBuffer) -> PixelBuffer {
        switch quarters {
        case 1: pixels.applyingOrientation(.right)
        case 2: pixels.applyingOrientation(.down)
        case 3: pixels.applyingOrientation(.left)
        default: pixels
        }
    }

    /// The rectangle of the unrotated image that becomes `rect` of the rotated one, whose size is `rotated`.
    func unturned(_ rect: ResizePlan.Rect, rotated: PixelSize) -> ResizePlan.Rect {
        let (x, y, width, height) = (rect.x, rect.y, rect.width, rect.height)
        switch quarters {
        case 1: return ResizePlan.Rect(x: y, y: rotated.width - x - width, width: height, height: width)
        case 2: return ResizePlan.Rect(x: rotated.width - x - width, y: rotated.height - y - height, width: width, height: height)
        case 3: return ResizePlan.Rect(x: rotated.height - y - height, y: x, width: height, height: width)
        default: return rect
        }
    }
}
