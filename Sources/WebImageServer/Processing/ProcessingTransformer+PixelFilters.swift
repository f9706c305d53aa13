import WebImageKit

extension ProcessingTransformer {
    /// thumbor's pixel filters (``ProcessingOptions/pixelFilters``), in order; all are validated before the
    /// first runs, and a `fill` canvas is checked against the limits before it is allocated.
    func applyPixelFilters(_ pixels: PixelBuffer) throws -> PixelBuffer {
        for filter in options.pixelFilters { try filter.validate() }
        var result = pixels
        for filter in options.pixelFilters {
            result = try apply(filter, to: result)
        }
        return result
    }

    /// One filter's pixels.
    private func apply(_ filter: PixelFilter, to pixels: PixelBuffer) throws -> PixelBuffer {
        switch filter {
        case .brightness(let amount): ChannelOffset(red: amount, green: amount, blue: amount).apply(to: pixels)
        case .rgb(let red, let green, let blue): ChannelOffset(red: red, green: green, blue: blue).apply(to: pixels)
        case .contrast(let amount): Contrast(amount: amount).apply(to: pixels)
        case .saturation(let factor): Saturation(factor: factor).apply(to: pixels)
        case .grayscale: Grayscale().apply(to: pixels)
        case .equalize: HistogramEqualization().apply(to: pixels)
        case .noise(let amount, let seed): Noise(amount: amount, seed: seed).apply(to: pixels)
        case .roundCorner(let corner): CornerRounding(corner: corner).apply(to: pixels)
        case .convolution(let kernel): KernelConvolution(kernel).apply(to: pixels)
        case .fill(let fill): FillCanvas(fill: fill, canvas: try fillCanvasSize(for: pixels)).apply(to: pixels)
        case .watermark(let watermark): try drawn(watermark, over: pixels)
        }
    }

    /// `pixels` with `watermark` over it; its image must have been fetched (``thumborWatermarks``).
    private func drawn(_ watermark: ThumborWatermark, over pixels: PixelBuffer) throws -> PixelBuffer {
        guard let mark = thumborWatermarks[watermark.url] else {
            throw ImageProcessingError(transformerKey: PixelFilter.errorKey, "the watermark image was not fetched")
        }
        let overlay = ThumborWatermarkOverlay(watermark: watermark, pixels: mark)
        return try overlay.apply(to: pixels) { width, height in try checkOutputSize(width: width, height: height) }
    }

    /// The canvas of `fill`: the requested size (times `dpr` and `zoom`), a side not requested taking the
    /// image's, as thumbor takes the request's width and height; checked against the limits.
    func fillCanvasSize(for pixels: PixelBuffer) throws -> PixelSize {
        let requested = ResizePlan.targetSize(options)
        let width = requested.width > 0 ? requested.width : Double(pixels.width)
        let height = requested.height > 0 ? requested.height : Double(pixels.height)
        try checkOutputSize(width: width, height: height)
        return PixelSize(width: Int(width), height: Int(height))
    }
}
