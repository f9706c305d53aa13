import Foundation

extension JPEGCoder {
    /// The numerator `M` of the smallest libjpeg scale `M`/8 (1…8) whose output still covers `target`
    /// on both sides: the IDCT does as much of the shrinking as it can, the resampler the rest.
    static func scaleNumerator(for size: PixelSize, covering target: PixelSize) -> Int {
        (1...8).first { numerator in
            let scaled = scaledSize(of: size, numerator: numerator)
            return scaled.width >= target.width && scaled.height >= target.height
        } ?? 8
    }

    /// The size libjpeg decodes `size` to at `numerator`/8: each side scaled and rounded up.
    static func scaledSize(of size: PixelSize, numerator: Int) -> PixelSize {
        PixelSize(width: (size.width * numerator + 7) / 8, height: (size.height * numerator + 7) / 8)
    }

    /// Decodes a JPEG stored at `storedSize` straight to `target` (smaller on both sides): libjpeg
    /// decodes at the smallest `M`/8 scale that covers the target and hands out its rows a band at a
    /// time to a ``StreamingResampler``, so neither the full-size image nor a full-height intermediate
    /// ever exists (issue 15). ``ImageDecodingOptions/maximumPixelCount`` limits the `M`/8 size.
    func decodeScaledDown(
        _ data: Data, storedSize: PixelSize, to target: PixelSize, orientation: ImageOrientation, options: ImageDecodingOptions
    ) throws -> Image {
        try options.checkSourceSize(storedSize, format: .jpeg)
        let numerator = Self.scaleNumerator(for: storedSize, covering: target)
        let decodedSize = Self.scaledSize(of: storedSize, numerator: numerator)
        try ImageCodingError.checkDimensions(.jpeg, width: decodedSize.width, height: decodedSize.height, limit: options.maximumPixelCount)
        var issue: DecodingIssue?
        let pixels = try data.withUnsafeBytes { bytes throws(ImageCodingError) in
            let stream = try LibJPEG.Stream(
                bytes, scaleNumerator: numerator, maximumWorkingMemory: Self.workingMemoryLimit(options: options),
                strict: options.strict
            )
            guard stream.outputSize == decodedSize else {
                throw ImageCodingError(.corruptData, format: .jpeg, "libjpeg decodes to \(stream.outputSize), not \(decodedSize)")
            }
            let pixels = try BandedDecode.pixels(decodedSize: decodedSize, target: target, hasAlpha: false, format: .jpeg) {
                buffer, rows throws(ImageCodingError) in try stream.read(into: buffer, maximumRows: rows)
            }
            try stream.finish()
            // Rows are counted at the M/8 scale; the issue names them in the target's rows.
            issue = stream.issue.map { $0.scalingRows(from: decodedSize.height, to: target.height) }
            return pixels
        }
        return options.makeImage(
            frames: [ImageFrame(pixels: pixels)], format: .jpeg, orientation: orientation, data: data, sourceSize: storedSize,
            issues: issue.map { [$0] } ?? []
        )
    }
}
