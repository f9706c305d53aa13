import WebImageKit

/// imgproxy's processing options applied to a decoded image: the pipeline's "transform" step.
///
/// The steps follow imgproxy's pipeline, on pixels the decoder has already turned upright (auto-rotate):
/// 0. `trim`: cut the background border (``TrimBorder``; not for animations, as in imgproxy);
///    (under thumbor's geometry, ``transformThumbor(_:_:trims:)`` first shrinks the source to `MAX_WIDTH`/`MAX_HEIGHT`);
/// 1. `crop`: cut the area from the source, before resizing;
/// 2. resize per ``ResizePlan`` (fit, fill, fill-down, force, auto; `zoom`, `min-width`, `min-height`);
/// 3. `rotate`: turn clockwise by 90°, 180° or 270°, then `flip`;
/// 4. the crop of fill and fill-down to the requested size, at the gravity (smart: ``SmartCrop``);
/// 5. `blur` (``WideBlur``), then `sharpen` (refused past ``maximumSharpenCost``), then `pixelate`;
/// 5b. thumbor's pixel filters (``ProcessingOptions/pixelFilters``), in their order (``applyPixelFilters(_:)``);
/// 6. `extend`: pad to the requested size, at the extend gravity, with transparency; then `extend_aspect_ratio`:
///    pad to the requested aspect ratio, at its gravity; then `padding` (times `dpr`, not `zoom`);
/// 7. flatten onto the `background` when it is set, or onto white when the output format has no alpha;
/// 8. `watermark`: the configured watermark over the result (``WatermarkOverlay``), last, as in imgproxy.
///
/// As in imgproxy, every size (crop, resize, extend) is measured in the rotated image: the steps before
/// the rotation work on the unrotated pixels through ``QuarterTurn``, so the rotation happens on the
/// resized image. Every result that can be larger than its input is checked against
/// ``maximumPixelCount`` before it is allocated.
struct ProcessingTransformer: Sendable {
    /// The URL's options.
    let options: ProcessingOptions
    /// The most pixels a result may have.
    let maximumPixelCount: Int
    /// The longest side a result may have; nil: no limit but the pixel count.
    let maximumDimension: Int?
    /// The format the result will be encoded as, when decided (the pipeline decides it before transforming);
    /// nil: the `format` option, else the image's own.
    let outputFormat: ImageFormat?
    /// The configured watermark's pixels, for the `watermark` option; nil: none is configured, the option does nothing.
    let watermarkImage: PixelBuffer?
    /// The configured base opacity of the watermark.
    let watermarkOpacity: Double
    /// The source's upright size as stored in its file, when it was shrunk on load for thumbor's geometry (which
    /// plans its sizes on it); nil: the decoded size is the source's.
    var storedSourceSize: PixelSize?
    /// The images of the URL's thumbor `watermark` filters, by their URL (the pipeline fetches them first).
    var thumborWatermarks: [String: PixelBuffer] = [:]

    init(
        options: ProcessingOptions, maximumPixelCount: Int, maximumDimension: Int? = nil, outputFormat: ImageFormat? = nil,
        watermarkImage: PixelBuffer? = nil, watermarkOpacity: Double = 1
    ) {
        self.options = options
        self.maximumPixelCount = maximumPixelCount
        self.maximumDimension = maximumDimension
        self.outputFormat = outputFormat
        self.watermarkImage = watermarkImage
        self.watermarkOpacity = watermarkOpacity
    }

    /// The name errors give the transform.
    static let name = "imgproxy"

    /// Every step, each frame; transparency is flattened when the output format lacks alpha or a background is set.
    func transform(_ image: Image) throws -> Image {
        let color = options.flattenColor(outputFormat: outputFormat ?? options.format?.imageFormat ?? image.format)
        let trims = image.frames.count == 1
        let frames = try image.frames.map {
            ImageFrame(pixels: try transform(pixels: $0.pixels, flattenOnto: color, trims: trims), duration: $0.duration)
        }
        if let size = frames.first?.pixels.size { try checkOutputSize(width: Double(size.width), height: Double(size.height)) }
        return Image(frames: frames, format: image.format, scale: image.scale, orientation: image.orientation,
                     loopCount: image.loopCount, data: nil)
    }

    /// The pipeline; `color` is what transparency is flattened onto, nil to keep it; `trims`: whether `trim`
    /// applies (not to the frames of an animation).
    func transform(pixels: PixelBuffer, flattenOnto color: RGBA?, trims: Bool = true) throws -> PixelBuffer {
        var steps = ThumborSteps()
        return try transform(pixels: pixels, flattenOnto: color, trims: trims, thumborSteps: &steps)
    }

    /// The pipeline, with what thumbor's geometry did put in `thumborSteps` (for `meta/`).
    func transform(pixels: PixelBuffer, flattenOnto color: RGBA?, trims: Bool, thumborSteps: inout ThumborSteps) throws -> PixelBuffer {
        var result: PixelBuffer
        var canvas: (width: Double, height: Double)?
        if let geometry = options.thumborGeometry {
            let thumbor = try transformThumbor(pixels, geometry, trims: trims)
            (result, canvas, thumborSteps) = (thumbor.pixels, thumbor.canvas, thumbor.steps)
        } else {
            result = try transformGeometry(trims ? trimmedBorder(pixels).pixels : pixels)
        }
        if let sigma = options.blur {
            result = try WideBlur(sigma: sigma).transform(pixels: result)
        }
        if let sigma = options.sharpen {
            try checkSharpenCost(sigma: sigma, size: result.size)
            result = try ImageTransformers.Sharpen(sigma: sigma).transform(pixels: result)
        }
        if let size = options.pixelate {
            result = Pixelate(size: size).apply(to: result)
        }
        result = try applyPixelFilters(result)
        let unextended = result.size
        if options.extend {
            result = try extend(result, to: canvas)
        }
        if options.extendAspectRatio {
            result = try extendToAspectRatio(result, from: unextended)
        }
        if let padding = options.padding {
            result = try pad(result, padding)
        }
        if let color {
            result = try ImageTransformers.Flatten(background: color).transform(pixels: result)
        }
        if let placement = options.watermark, let watermarkImage {
            let overlay = WatermarkOverlay(pixels: watermarkImage, placement: placement, baseOpacity: watermarkOpacity, dpr: options.dpr)
            result = try overlay.apply(to: result) { width, height in try checkOutputSize(width: width, height: height) }
        }
        return result
    }

    /// Step 0, `trim`: `pixels` without their background border, and the area kept (nil when nothing is trimmed).
    func trimmedBorder(_ pixels: PixelBuffer) throws -> (pixels: PixelBuffer, area: ResizePlan.Rect?) {
        guard let trim = options.trim, let area = TrimBorder(trim: trim).area(in: pixels) else { return (pixels, nil) }
        return (try pixels.cropped(to: area), area)
    }

    /// Steps 1 to 4: `crop`, resize, `rotate`, `flip` and the crop of fill and fill-down.
    private func transformGeometry(_ pixels: PixelBuffer) throws -> PixelBuffer {
        let turn = QuarterTurn(degrees: options.rotate)
        var result = try cropSource(pixels, turn: turn)
        let plan = ResizePlan(source: turn.turned(result.size), options: options)
        if plan.scaledSize != turn.turned(result.size) {
            try checkOutputSize(width: Double(plan.scaledSize.width), height: Double(plan.scaledSize.height))
            result = Resampler.resize(result, to: turn.turned(plan.scaledSize))
        }
        result = turn.apply(to: result)
        if options.flipHorizontal || options.flipVertical {
            result = try ImageTransformers.Flip(horizontal: options.flipHorizontal, vertical: options.flipVertical).transform(pixels: result)
        }
        if let crop = plan.crop {
            let area = PixelSize(width: crop.width, height: crop.height)
            let rect = options.gravity.anchor == .smart ? SmartCrop.window(area, in: result) : crop
            result = try result.cropped(to: rect)
        }
        return result
    }

    /// Step 1: the `crop` area, measured in the rotated image, cut from the unrotated `pixels`.
    private func cropSource(_ pixels: PixelBuffer, turn: QuarterTurn) throws -> PixelBuffer {
        let rotated = turn.turned(pixels.size)
        guard let crop = options.crop, let area = crop.area(in: rotated) else { return pixels }
        let gravity = crop.gravity ?? options.gravity
        if gravity.anchor == .smart {
            return try pixels.cropped(to: SmartCrop.window(turn.turned(area), in: pixels))
        }
        let origin = ResizePlan.origin(of: area, in: rotated, gravity: gravity)
        let rect = ResizePlan.Rect(x: origin.x, y: origin.y, width: area.width, height: area.height)
        return try pixels.cropped(to: turn.unturned(rect, rotated: rotated))
    }

    /// Refuses a result over the pixel count or the longest side, before it is allocated.
    func checkOutputSize(width: Double, height: Double) throws(ImageProcessingError) {
        try ImageProcessingError.checkOutputSize(width: width, height: height, limit: maximumPixelCount, transformerKey: Self.name)
        if let maximumDimension, max(width, height) > Double(maximumDimension) {
            throw ImageProcessingError(
                .outputTooLarge, transformerKey: Self.name, "a side of \(Int(max(width, height))) pixels is over the limit of \(maximumDimension)")
        }
    }

    /// The most kernel taps times pixels a sharpen may cost (its luma is convolved directly, so the cost
    /// grows with sigma): about 4 × 10⁹, a sigma of 170 on a 4-megapixel result. Sharpening sigmas in use
    /// are a few pixels; a larger request is refused rather than allowed to hold a processing thread.
    static let maximumSharpenCost = 1 << 32

    private func checkSharpenCost(sigma: Double, size: PixelSize) throws(ImageProcessingError) {
        let taps = 2 * (sigma * 3).rounded(.up) + 1
        guard taps * Double(size.width) * Double(size.height) <= Double(Self.maximumSharpenCost) else {
            throw ImageProcessingError(transformerKey: Self.name, "sharpening \(size) with sigma \(sigma) would cost too much")
        }
    }

    /// Step 6: the image on a transparent canvas of the requested size (times `dpr` and `zoom`; a side not
    /// requested, or smaller than the image, keeps the image's), placed at the extend gravity; `canvas`, when
    /// given, is the size instead (thumbor's `fill`, which reads the requested size after its transform).
    private func extend(_ pixels: PixelBuffer, to canvas: (width: Double, height: Double)?) throws -> PixelBuffer {
        let requested = canvas ?? ResizePlan.targetSize(options)
        return try embed(pixels, width: requested.width, height: requested.height, gravity: options.extendGravity)
    }

    /// Step 6, `extend_aspect_ratio`: the image (`unextended` before `extend`) on a transparent canvas of the
    /// requested width-to-height ratio, one side kept, as imgproxy computes it; nothing unless both sides are
    /// requested.
    private func extendToAspectRatio(_ pixels: PixelBuffer, from unextended: PixelSize) throws -> PixelBuffer {
        let target = ResizePlan.targetSize(options)
        guard target.width > 0, target.height > 0 else { return pixels }
        let width = Double(unextended.width), height = Double(unextended.height)
        let ratio = target.width / target.height
        let canvas: (width: Double, height: Double)
        if target.height / height > target.width / width {
            canvas = (width, ResizePlan.clamped((width / ratio).rounded()))
        } else if target.width / width > target.height / height {
            canvas = (ResizePlan.clamped((height * ratio).rounded()), height)
        } else {
            return pixels
        }
        return try embed(pixels, width: canvas.width, height: canvas.height, gravity: options.extendAspectRatioGravity)
    }

    /// `pixels` on a transparent canvas of `width` × `height` (a side of 0, or smaller than the image's, keeps
    /// the image's) at `gravity`, its offsets times `dpr`; the canvas is checked against the limits first.
    private func embed(_ pixels: PixelBuffer, width: Double, height: Double, gravity: Gravity) throws -> PixelBuffer {
        let canvas = (width: max(width, Double(pixels.width)), height: max(height, Double(pixels.height)))
        try checkOutputSize(width: canvas.width, height: canvas.height)
        let size = PixelSize(width: Int(canvas.width), height: Int(canvas.height))
        guard size != pixels.size else { return pixels }
        let origin = ResizePlan.origin(of: pixels.size, in: size, gravity: gravity, offsetScale: options.dpr)
        return try ImageTransformers.Extend(
            width: size.width, height: size.height, x: origin.x, y: origin.y, maximumPixelCount: maximumPixelCount
        ).transform(pixels: pixels)
    }
}

extension ProcessingTransformer {
    /// `padding` times `dpr` around `pixels`, transparent (the flattening fills it with the background).
    func pad(_ pixels: PixelBuffer, _ padding: ProcessingOptions.Padding) throws -> PixelBuffer {
        func scaled(_ side: Int) -> Double { (Double(side) * options.dpr).rounded() }
        let width = Double(pixels.width) + scaled(padding.left) + scaled(padding.right)
        let height = Double(pixels.height) + scaled(padding.top) + scaled(padding.bottom)
        try checkOutputSize(width: width, height: height)
        return try ImageTransformers.Extend(
            width: Int(width), height: Int(height), x: Int(scaled(padding.left)), y: Int(scaled(padding.top)),
            maximumPixelCount: maximumPixelCount
        ).transform(pixels: pixels)
    }
}

extension PixelBuffer {
    /// The pixels inside `rect`; the part of `rect` outside the buffer is dropped.
    func cropped(to rect: ResizePlan.Rect) throws -> PixelBuffer {
        guard rect.x != 0 || rect.y != 0 || rect.width != width || rect.height != height else { return self }
        return try ImageTransformers.Crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height).transform(pixels: self)
    }
}
