import WebImageKit

extension ProcessingTransformer {
    /// Steps 1 to 4 under thumbor's geometry, in thumbor's order: the manual crop (moved by `trimmed`, kept inside
    /// the image, ignored when empty), the crop to the aspect ratio and the resize of ``ThumborResizePlan``, the
    /// flips, `upscale()` and `proportion()`, then the rotation. Returns the pixels and the canvas thumbor's `fill`
    /// would pad them to.
    func transformThumborGeometry(
        _ pixels: PixelBuffer, _ geometry: ThumborGeometry, original: PixelSize, trimmed: ResizePlan.Rect?
    ) throws -> (PixelBuffer, canvas: (width: Double, height: Double)) {
        var result = pixels
        var geometry = geometry
        if let crop = geometry.crop {
            let effective = Self.manualCrop(crop, in: result.size, trimmedBy: trimmed)
            geometry.crop = effective
            if let effective {
                result = try result.cropped(to: ResizePlan.Rect(
                    x: effective.left, y: effective.top, width: effective.right - effective.left, height: effective.bottom - effective.top))
            }
        }
        let source = result
        let smartCenter: ((PixelSize) -> (x: Int, y: Int))? = geometry.smart ? { area in
            let window = SmartCrop.window(area, in: source)
            return (window.x + window.width / 2, window.y + window.height / 2)
        } : nil
        // Shrunk on load (no manual crop, trim or smart then): the plan is made on the stored size, its crop
        // scaled to the decoded pixels.
        let planned = storedSourceSize.flatMap { Self.sameShape($0, result.size) ? $0 : nil } ?? result.size
        let plan = ThumborResizePlan(source: planned, original: original, geometry: geometry, smartCenter: smartCenter)
        if let crop = plan.crop { result = try result.cropped(to: Self.scaled(crop, from: planned, to: result.size)) }
        result = try resized(result, to: plan.resizedSize)
        if options.flipHorizontal || options.flipVertical {
            result = try ImageTransformers.Flip(horizontal: options.flipHorizontal, vertical: options.flipVertical).transform(pixels: result)
        }
        result = try resized(result, to: plan.finalSize)
        result = QuarterTurn(degrees: options.rotate).apply(to: result)
        let requested = plan.requestedAfterTransform
        return (result, (Double(requested.width), Double(requested.height)))
    }

    /// Whether `decoded` can be `stored` shrunk: at most as large, the same orientation.
    static func sameShape(_ stored: PixelSize, _ decoded: PixelSize) -> Bool {
        decoded.width <= stored.width && decoded.height <= stored.height && (stored.width >= stored.height) == (decoded.width >= decoded.height)
    }

    /// `rect` of an image of `from` pixels, in the same image at `to` pixels (edges rounded down, at least 1 pixel).
    static func scaled(_ rect: ResizePlan.Rect, from: PixelSize, to: PixelSize) -> ResizePlan.Rect {
        guard from != to else { return rect }
        let sx = Double(to.width) / Double(from.width), sy = Double(to.height) / Double(from.height)
        let x = min(Int(Double(rect.x) * sx), to.width - 1), y = min(Int(Double(rect.y) * sy), to.height - 1)
        let right = min(Int((Double(rect.x + rect.width) * sx).rounded()), to.width)
        let bottom = min(Int((Double(rect.y + rect.height) * sy).rounded()), to.height)
        return ResizePlan.Rect(x: x, y: y, width: max(1, right - x), height: max(1, bottom - y))
    }

    /// `pixels` resized to `size`, checked against the limits first; unchanged when already that size.
    private func resized(_ pixels: PixelBuffer, to size: PixelSize) throws -> PixelBuffer {
        guard size != pixels.size else { return pixels }
        try checkOutputSize(width: Double(size.width), height: Double(size.height))
        return Resampler.resize(pixels, to: size)
    }

    /// thumbor's `manual_crop`: the rectangle moved by the trimmed border, each edge kept inside `size`; nil when
    /// nothing is left (thumbor then does not crop).
    static func manualCrop(_ crop: ThumborRequest.Rectangle, in size: PixelSize, trimmedBy trimmed: ResizePlan.Rect?) -> ThumborRequest.Rectangle? {
        let dx = trimmed?.x ?? 0, dy = trimmed?.y ?? 0
        func limit(_ value: Int, _ maximum: Int) -> Int { min(max(value, 0), maximum) }
        let rect = ThumborRequest.Rectangle(
            left: limit(crop.left - dx, size.width), top: limit(crop.top - dy, size.height),
            right: limit(crop.right - dx, size.width), bottom: limit(crop.bottom - dy, size.height))
        return rect.left < rect.right && rect.top < rect.bottom ? rect : nil
    }
}
