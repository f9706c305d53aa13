import WebImageKit

/// imgproxy's `trim`: the smallest rectangle holding every pixel that differs from the border colour by more
/// than the threshold in some channel (or, for thumbor's, by a Euclidean distance over the threshold), cut from the image.
///
/// As libvips' `find_trim` does for imgproxy, transparency is judged flattened onto magenta, the colour is the
/// top-left pixel's (or the bottom-right one's) unless one is given, and an image that is all border is kept whole. `equal_hor` and
/// `equal_ver` cut the same (the smaller) border from both opposite sides. Unlike libvips, no 3×3 median
/// smoothing comes first: a single stray pixel counts as content.
struct TrimBorder: Sendable {
    let trim: ProcessingOptions.Trim

    /// The colour transparent pixels are judged on, as imgproxy flattens them before looking for the border.
    static let flattenColor: (Int, Int, Int) = (255, 0, 255)

    /// The area of `pixels` to keep, or nil for all of it.
    func area(in pixels: PixelBuffer) -> ResizePlan.Rect? {
        let width = pixels.width, height = pixels.height
        guard width > 0, height > 0 else { return nil }
        let bytes = pixels.bytes
        func color(at index: Int) -> (Int, Int, Int) {
            let alpha = Int(bytes[index + 3])
            guard alpha < 255 else { return (Int(bytes[index]), Int(bytes[index + 1]), Int(bytes[index + 2])) }
            func blend(_ value: UInt8, _ under: Int) -> Int { (Int(value) * alpha + under * (255 - alpha) + 127) / 255 }
            return (blend(bytes[index], Self.flattenColor.0), blend(bytes[index + 1], Self.flattenColor.1),
                    blend(bytes[index + 2], Self.flattenColor.2))
        }
        let border = trim.color.map { (Int($0.red), Int($0.green), Int($0.blue)) } ?? color(at: trim.colorFromBottomRight ? (width * height - 1) * 4 : 0)
        let threshold = trim.threshold
        func isContent(_ x: Int, _ y: Int) -> Bool {
            let pixel = color(at: (y * width + x) * 4)
            let (red, green, blue) = (pixel.0 - border.0, pixel.1 - border.1, pixel.2 - border.2)
            if trim.measuresEuclideanDistance {
                return Double(red * red + green * green + blue * blue) > threshold * threshold
            }
            return Double(max(abs(red), abs(green), abs(blue))) > threshold
        }
        var (left, right, top, bottom) = (width, -1, height, -1)
        for y in 0..<height {
            for x in 0..<width where isContent(x, y) {
                left = min(left, x); right = max(right, x)
                top = min(top, y); bottom = max(bottom, y)
            }
        }
        guard right >= left, bottom >= top else { return nil }
        var rect = ResizePlan.Rect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
        if trim.equalHorizontal {
            let rightBorder = width - rect.x - rect.width
            if rightBorder > rect.x { rect.width += rightBorder - rect.x } else { rect.width += rect.x - rightBorder; rect.x = rightBorder }
        }
        if trim.equalVertical {
            let bottomBorder = height - rect.y - rect.height
            if bottomBorder > rect.y { rect.height += bottomBorder - rect.y } else { rect.height += rect.y - bottomBorder; rect.y = bottomBorder }
        }
        return rect.width == width && rect.height == height ? nil : rect
    }
}
