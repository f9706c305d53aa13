import WebImageKit

/// The resizing and cropping of imgproxy's options, as a transformer the ``ImageManager`` runs (on its
/// decoding threads) and caches under a key made from the options.
struct ProcessingTransformer: ImageTransforming {
    /// The URL's options.
    let options: ProcessingOptions
    /// The most pixels a result may have.
    let maximumPixelCount: Int

    /// The options that change the pixels, so that two URLs with equal keys give equal images.
    var transformerKey: String {
        let gravity = options.gravity
        return "imgproxy(rt:\(options.resizingType.rawValue),w:\(options.width),h:\(options.height),dpr:\(options.dpr),"
            + "el:\(options.enlarge),g:\(gravity.anchor.rawValue):\(gravity.xOffset):\(gravity.yOffset),"
            + "ar:\(options.autoRotate ?? true))"
    }

    /// Resizes the frame per ``ResizePlan``, then crops it.
    func transform(pixels: PixelBuffer) throws -> PixelBuffer {
        let plan = ResizePlan(source: pixels.size, options: options)
        var result = pixels
        if plan.scaledSize != pixels.size {
            try ImageProcessingError.checkOutputSize(
                width: Double(plan.scaledSize.width), height: Double(plan.scaledSize.height),
                limit: maximumPixelCount, transformerKey: transformerKey)
            result = Resampler.resize(result, to: plan.scaledSize)
        }
        if let crop = plan.crop {
            result = try ImageTransformers.Crop(x: crop.x, y: crop.y, width: crop.width, height: crop.height).transform(pixels: result)
        }
        return result
    }
}

extension ProcessingOptions {
    /// The first option this server cannot apply yet, named as imgproxy names it; nil when all can be.
    var unsupportedOption: String? {
        if crop != nil { return "crop" }
        if extend { return "extend" }
        if blur != nil { return "blur" }
        if sharpen != nil { return "sharpen" }
        if rotate != 0 { return "rotate" }
        if background != nil { return "background" }
        if gravity.anchor == .smart { return "gravity:sm" }
        return nil
    }

    /// The thumbnail box for shrink-on-load, and whether it is a fit (aspect kept, inside the box) or a
    /// cover (``SourceDecoder`` makes the decoded image cover the box); nil when the full image is needed.
    ///
    /// Both are never smaller than what ``ResizePlan`` needs, whatever the source's size.
    var shrinkOnLoad: (size: PixelSize, fit: Bool)? {
        let width = Int((Double(self.width) * dpr).rounded()), height = Int((Double(self.height) * dpr).rounded())
        guard width > 0 || height > 0 else { return nil }
        let unbounded = PixelBuffer.maximumSide
        let fitsOneSide = width == 0 || height == 0
        switch resizingType {
        case .fit:
            return (PixelSize(width: width > 0 ? width : unbounded, height: height > 0 ? height : unbounded), true)
        case .fill, .fillDown, .auto:
            if fitsOneSide { return (PixelSize(width: width > 0 ? width : unbounded, height: height > 0 ? height : unbounded), true) }
            return (PixelSize(width: width, height: height), false)
        case .force:
            return fitsOneSide ? nil : (PixelSize(width: width, height: height), false)
        }
    }
}
