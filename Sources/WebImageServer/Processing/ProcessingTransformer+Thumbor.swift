import WebImageKit

/// The result of thumbor's geometry on one source: the pixels, the canvas thumbor's `fill` pads them to, and the
/// steps as thumbor's `meta/` lists them.
struct ThumborTransformed: Sendable {
    /// The pixels after the geometry and the rotation.
    var pixels: PixelBuffer
    /// The requested size after the transform, which `fill` pads to.
    var canvas: (width: Double, height: Double)
    /// The operations and focal points.
    var steps: ThumborSteps
}

extension ProcessingTransformer {
    /// `trim` and steps 1 to 4 under thumbor's geometry, in thumbor's order: the source shrunk to `MAX_WIDTH` and
    /// `MAX_HEIGHT` (``ThumborGeometry/normalizedSize(of:)``, on the size as loaded: the stored size when shrunk on
    /// load), `trim` (when `trims`), the manual crop (moved into the shrunk source, moved by `trim`, kept inside
    /// the image, ignored when empty), the crop to the aspect ratio and the resize of ``ThumborResizePlan``, the
    /// flips, `upscale()` and `proportion()`, then the rotation.
    func transformThumbor(_ pixels: PixelBuffer, _ geometry: ThumborGeometry, trims: Bool) throws -> ThumborTransformed {
        var steps = ThumborSteps()
        // Shrunk on load: thumbor's sizes come from the stored size (the shrunk pixels can be square where it is not).
        let stored = storedSourceSize.flatMap { pixels.width <= $0.width && pixels.height <= $0.height ? $0 : nil }
        let loaded = stored ?? pixels.size
        let normalized = geometry.normalizedSize(of: loaded)
        let source = normalized ?? loaded
        var result = pixels
        // Only ever smaller: pixels shrunk on load below the normalized size stay as they are.
        if normalized != nil, result.width > source.width || result.height > source.height { result = try resized(result, to: source) }
        // Pixels smaller than thumbor's source (shrunk on load for a plan that needs none: no crop, trim or smart)
        // are planned on the source's size, the plan's crop scaled to them.
        let plansOnSource = result.size != source
        var trimmed: ResizePlan.Rect?
        if trims {
            (result, trimmed) = try trimmedBorder(result)
            if let area = trimmed { steps.operations.append(.crop(Self.rectangle(area))) }
        }
        var geometry = geometry
        if let crop = geometry.crop {
            let translated = normalized.map { ThumborGeometry.translatedCrop(crop, from: loaded, to: $0) } ?? crop
            let effective = Self.manualCrop(translated, in: result.size, trimmedBy: trimmed)
            geometry.crop = effective
            if let effective {
                result = try result.cropped(to: ResizePlan.Rect(
                    x: effective.left, y: effective.top, width: effective.right - effective.left, height: effective.bottom - effective.top))
                steps.operations.append(.crop(effective))
            }
        }
        let cropped = result
        let smartWindow: ((PixelSize) -> ResizePlan.Rect)? = geometry.smart ? { area in SmartCrop.window(area, in: cropped) } : nil
        let planned = plansOnSource && Self.sameShape(source, result.size) ? source : result.size
        let plan = ThumborResizePlan(source: planned, original: source, geometry: geometry, smartWindow: smartWindow)
        if let crop = plan.crop {
            result = try result.cropped(to: Self.scaled(crop, from: planned, to: result.size))
            steps.operations.append(.crop(Self.rectangle(crop)))
        }
        if plan.resizes { steps.operations.append(.resize(plan.resizedSize)) }
        result = try resized(result, to: plan.resizedSize)
        if options.flipHorizontal || options.flipVertical {
            result = try ImageTransformers.Flip(horizontal: options.flipHorizontal, vertical: options.flipVertical).transform(pixels: result)
        }
        if options.flipHorizontal { steps.operations.append(.flipHorizontally) }
        if options.flipVertical { steps.operations.append(.flipVertically) }
        steps.focalPoints = ThumborSteps.focalPoints(of: geometry, source: planned, smartWindow: plan.smartWindow)
        result = try resized(result, to: plan.finalSize)
        result = QuarterTurn(degrees: options.rotate).apply(to: result)
        let requested = plan.requestedAfterTransform
        return ThumborTransformed(pixels: result, canvas: (Double(requested.width), Double(requested.height)), steps: steps)
    }

    /// `rect` as thumbor's left, top, right and bottom.
    static func rectangle(_ rect: ResizePlan.Rect) -> ThumborRequest.Rectangle {
        ThumborRequest.Rectangle(left: rect.x, top: rect.y, right: rect.x + rect.width, bottom: rect.y + rect.height)
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
