import WebImageKit

extension ProcessingOptions.Crop {
    /// The size of the area to cut from an image of `size`, as imgproxy computes it: a side of 1 or more
    /// is pixels (truncated), a fraction below 1 is that share of the side (rounded, at least 1 pixel),
    /// 0 is the whole side; no side is larger than the image's. Nil when the area is the whole image.
    func area(in size: PixelSize) -> PixelSize? {
        func side(_ value: Double, _ full: Int) -> Int {
            let requested: Int
            if value <= 0 || !value.isFinite {
                requested = full
            } else if value >= 1 {
                requested = value >= Double(full) ? full : Int(value)
            } else {
                requested = max(1, Int((Double(full) * value).rounded()))
            }
            return min(requested, full)
        }
        let area = PixelSize(width: side(width, size.width), height: side(height, size.height))
        return area == size ? nil : area
    }
}
