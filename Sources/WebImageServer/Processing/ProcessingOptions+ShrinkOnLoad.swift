import WebImageKit

extension ProcessingOptions {
    /// The thumbnail box for shrink-on-load, and whether the decoded image fits inside it or covers it (aspect
    /// kept either way); nil when the full image is needed.
    ///
    /// Both are never smaller than what ``ProcessingTransformer`` needs, whatever the source's size: the
    /// box is the requested size turned back when `rotate` swaps the sides, and divided by the `crop`
    /// fractions, since the crop is cut from the decoded image before it is resized, and times `zoom`. A crop
    /// given in pixels, or placed with offsets in pixels, needs the source at full resolution: then there is no
    /// shrink-on-load. Nor is there with `trim` (the border is found in the whole image, as imgproxy does),
    /// `min-width` or `min-height` (which may enlarge past the box), thumbor's geometry (whose sizes are rounded from the
    /// source's own), or a `zoom` that differs by side.
    var shrinkOnLoad: (size: PixelSize, mode: ImageDecodingOptions.ThumbnailMode)? {
        guard trim == nil, thumborGeometry == nil, minWidth == 0, minHeight == 0, zoomX == zoomY else { return nil }
        var width = (Double(self.width) * dpr * zoomX).rounded(), height = (Double(self.height) * dpr * zoomY).rounded()
        guard width > 0 || height > 0 else { return nil }
        if let crop {
            let gravity = crop.gravity ?? self.gravity
            let offsetsInPixels = gravity.anchor != .focusPoint && (abs(gravity.xOffset) >= 1 || abs(gravity.yOffset) >= 1)
            guard crop.width < 1, crop.height < 1, !offsetsInPixels else { return nil }
            if crop.width > 0 { width = (width / crop.width).rounded(.up) }
            if crop.height > 0 { height = (height / crop.height).rounded(.up) }
        }
        let unbounded = Double(PixelBuffer.maximumSide)
        guard width <= unbounded, height <= unbounded else { return nil }
        let requested = QuarterTurn(degrees: rotate).turned(PixelSize(width: Int(width), height: Int(height)))
        let fitsOneSide = requested.width == 0 || requested.height == 0
        let box = PixelSize(
            width: requested.width > 0 ? requested.width : PixelBuffer.maximumSide,
            height: requested.height > 0 ? requested.height : PixelBuffer.maximumSide)
        switch resizingType {
        case .fit:
            return (box, .fit)
        case .fill, .fillDown, .auto:
            return (box, fitsOneSide ? .fit : .fill)
        case .force:
            return fitsOneSide ? nil : (box, .fill)
        }
    }
}
