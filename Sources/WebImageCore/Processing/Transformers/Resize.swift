extension ImageTransformers {
    /// Resizes to a target size (SDWebImage's resizing transformer).
    public struct Resize: ImageTransforming {
        /// How the image is made to fit the target size.
        public enum Mode: String, Sendable, CaseIterable {
            /// Keep the aspect ratio and fit inside the size (the result may be smaller on one side).
            case fit
            /// Keep the aspect ratio, cover the size, and crop the overflow around the centre.
            case fill
            /// Ignore the aspect ratio and use exactly the size.
            case stretch
        }

        /// The target size in pixels.
        public let size: PixelSize
        /// How to fit the image to ``size``.
        public let mode: Mode
        /// Whether an image smaller than the target is enlarged (off by default: never upscale unless asked).
        public let upscale: Bool
        /// The resampling filter.
        public let filter: ResamplingFilter
        /// The most pixels the result (and any intermediate buffer) may have; a larger one fails with
        /// ``ImageProcessingError/Code/outputTooLarge`` before allocation. Not part of ``transformerKey``:
        /// it never changes a result, only whether there is one.
        public let maximumPixelCount: Int

        /// Creates a resize transformer.
        public init(
            size: PixelSize, mode: Mode = .fit, upscale: Bool = false, filter: ResamplingFilter = .lanczos3,
            maximumPixelCount: Int = ImageDecodingOptions.defaultMaximumPixelCount
        ) {
            self.size = size
            self.mode = mode
            self.upscale = upscale
            self.filter = filter
            self.maximumPixelCount = maximumPixelCount
        }

        public var transformerKey: String {
            "resize(\(size.width)x\(size.height),\(mode.rawValue)\(upscale ? ",upscale" : "")\(filter == .lanczos3 ? "" : ",\(filter.rawValue)"))"
        }

        public func transform(pixels: PixelBuffer) throws -> PixelBuffer {
            guard size.width > 0, size.height > 0 else {
                throw ImageProcessingError(transformerKey: transformerKey, "the target size must be positive")
            }
            let source = pixels.size
            switch mode {
            case .stretch:
                var target = size
                if !upscale { target = PixelSize(width: min(target.width, source.width), height: min(target.height, source.height)) }
                try checkSize(Double(target.width), Double(target.height))
                return Resampler.resize(pixels, to: target, filter: filter)
            case .fit:
                let fitted = Resampler.aspectFitSize(source, in: size)
                if !upscale, fitted.width >= source.width || fitted.height >= source.height { return pixels }
                try checkSize(Double(fitted.width), Double(fitted.height))
                return Resampler.resize(pixels, to: fitted, filter: filter)
            case .fill:
                let scale = max(Double(size.width) / Double(source.width), Double(size.height) / Double(source.height))
                if !upscale, scale >= 1 { // only crop to the target's aspect ratio
                    let ratio = Double(size.width) / Double(size.height)
                    let cropWidth = min(source.width, Int((Double(source.height) * ratio).rounded()))
                    let cropHeight = min(source.height, Int((Double(source.width) / ratio).rounded()))
                    return pixels.cropped(toCentre: PixelSize(width: max(cropWidth, 1), height: max(cropHeight, 1)))
                }
                let coveringWidth = max(Double(size.width), (Double(source.width) * scale).rounded())
                let coveringHeight = max(Double(size.height), (Double(source.height) * scale).rounded())
                try checkSize(coveringWidth, coveringHeight)
                let covering = PixelSize(width: Int(coveringWidth), height: Int(coveringHeight))
                return Resampler.resize(pixels, to: covering, filter: filter).cropped(toCentre: size)
            }
        }

        private func checkSize(_ width: Double, _ height: Double) throws(ImageProcessingError) {
            try ImageProcessingError.checkOutputSize(
                width: width, height: height, limit: maximumPixelCount, transformerKey: transformerKey)
        }
    }
}

extension PixelBuffer {
    /// The centred region of `size` (clamped to the buffer).
    func cropped(toCentre size: PixelSize) -> PixelBuffer {
        let width = min(size.width, self.width), height = min(size.height, self.height)
        return cropped(x: (self.width - width) / 2, y: (self.height - height) / 2, width: width, height: height)
    }

    /// The region at (`x`, `y`) of `width × height`, which must lie inside the buffer.
    func cropped(x: Int, y: Int, width: Int, height: Int) -> PixelBuffer {
        if x == 0, y == 0, width == self.width, height == self.height { return self }
        let source = bytes, sourceRow = bytesPerRow
        return PixelBuffer(width: width, height: height, hasAlpha: hasAlpha) { out in
            source.withUnsafeBytes { raw in
                for row in 0..<height {
                    let from = (y + row) * sourceRow + x * 4
                    let to = row * width * 4
                    UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(out)[to..<(to + width * 4)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[from..<(from + width * 4)]))
                }
            }
        }
    }
}
