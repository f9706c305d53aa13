import WebImageKit

extension ThumborGeometry {
    /// thumbor's `Engine.normalize()`: the size a loaded source of `size` is shrunk to under `MAX_WIDTH` and
    /// `MAX_HEIGHT`, before anything else (trim, crops, resize); nil when it is not shrunk.
    ///
    /// thumbor's rule, kept as it is: when a side is over its maximum, only the side whose excess (`size - MAX`,
    /// a maximum of 0 counting as 0) is strictly larger is brought to its maximum, and only when that maximum is
    /// not 0; the other side follows the aspect ratio with Python's `round` (halves to even), at least 1 pixel
    /// (thumbor's engine would fail on 0). Equal excesses shrink nothing. The result is never larger than `size`.
    func normalizedSize(of size: PixelSize) -> PixelSize? {
        let maximumWidth = maximumSourceWidth, maximumHeight = maximumSourceHeight
        guard size.width > maximumWidth || size.height > maximumHeight else { return nil }
        let widthExcess = size.width - maximumWidth, heightExcess = size.height - maximumHeight
        if maximumWidth > 0, widthExcess > heightExcess {
            return PixelSize(width: maximumWidth, height: Self.proportional(maximumWidth, times: size.height, over: size.width))
        }
        if maximumHeight > 0, heightExcess > widthExcess {
            return PixelSize(width: Self.proportional(maximumHeight, times: size.width, over: size.height), height: maximumHeight)
        }
        return nil
    }

    /// thumbor's `translate_crop_coordinates`: a manual crop given in the loaded source's pixels, moved into the
    /// source shrunk from `loaded` to `normalized` (each edge times the new side over the old, Python's `//`).
    ///
    /// thumbor's `normalize_crops` passes a side computed from the other when a width or a height is requested
    /// (`get_proportional_height(width)`); that is the shrunk side itself, exactly, as a float — it only makes
    /// some of thumbor's `meta/` numbers print as `7.0` — so the shrunk size is used as it is.
    static func translatedCrop(_ crop: ThumborRequest.Rectangle, from loaded: PixelSize, to normalized: PixelSize) -> ThumborRequest.Rectangle {
        func scaled(_ edge: Int, _ new: Int, _ old: Int) -> Int {
            // Edges are at least 0 (the grammar's digits, at most 2^30) and sides at least 1, so `/` is Python's
            // `//`; a product too large for an Int (it cannot be, for a decoded source) keeps the edge.
            let (product, overflow) = edge.multipliedReportingOverflow(by: new)
            return overflow || old <= 0 ? edge : product / old
        }
        return ThumborRequest.Rectangle(
            left: scaled(crop.left, normalized.width, loaded.width), top: scaled(crop.top, normalized.height, loaded.height),
            right: scaled(crop.right, normalized.width, loaded.width), bottom: scaled(crop.bottom, normalized.height, loaded.height))
    }

    /// Python's `round(float(side) * times / over, 0)`, at least 1.
    private static func proportional(_ side: Int, times: Int, over: Int) -> Int {
        max(1, Int((Double(side) * Double(times) / Double(over)).rounded(.toNearestOrEven)))
    }
}
