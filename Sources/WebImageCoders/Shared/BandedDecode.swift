import WebImageCore

/// Drives a decoder that produces rows top to bottom (libjpeg scanlines, libpng rows) into a finished
/// pixel buffer without ever holding the decoded image: rows are read a band at a time into a small
/// buffer and fed to a ``StreamingResampler`` that writes the output (issue 15). When the decoded size
/// already is the target, rows go straight into the output.
enum BandedDecode {
    /// The most bytes one band of decoded RGBA rows may take (at least one row is always read).
    static let bandByteBudget = 1 << 20
    /// The most rows read per band.
    static let maximumBandRows = 16

    /// How many rows a band of `width`-pixel rows holds: up to ``maximumBandRows``, within ``bandByteBudget``.
    static func bandRows(forWidth width: Int) -> Int {
        max(1, min(maximumBandRows, bandByteBudget / max(1, width * PixelBuffer.bytesPerPixel)))
    }

    /// Reads every row of a `decodedSize` image through `readRows` and returns it resampled to `target`.
    ///
    /// `readRows(buffer, maximumRows)` writes up to `maximumRows` rows of `4 × decodedSize.width` bytes,
    /// without padding, at the start of `buffer` and returns how many it wrote; zero before the last row
    /// is an error. The caller has checked `decodedSize` against its pixel limit, and `target` is no
    /// larger than it on either side.
    static func pixels(
        decodedSize: PixelSize, target: PixelSize, hasAlpha: Bool, format: ImageFormat,
        readRows: (UnsafeMutableBufferPointer<UInt8>, Int) throws(ImageCodingError) -> Int
    ) throws(ImageCodingError) -> PixelBuffer {
        let rowBytes = decodedSize.width * PixelBuffer.bytesPerPixel
        if decodedSize == target {
            return try PixelBuffer(width: target.width, height: target.height, hasAlpha: hasAlpha) {
                (output: UnsafeMutableBufferPointer<UInt8>) throws(ImageCodingError) in
                var row = 0
                while row < decodedSize.height {
                    let rest = UnsafeMutableBufferPointer(rebasing: output[(row * rowBytes)...])
                    row += try readBand(into: rest, maximumRows: decodedSize.height - row, format: format, readRows)
                }
            }
        }
        let resampler = StreamingResampler(from: decodedSize, to: target, hasAlpha: hasAlpha)
        let bandRows = bandRows(forWidth: decodedSize.width)
        let band = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bandRows * rowBytes)
        defer { band.deallocate() }
        return try PixelBuffer(width: target.width, height: target.height, hasAlpha: hasAlpha) {
            (output: UnsafeMutableBufferPointer<UInt8>) throws(ImageCodingError) in
            var row = 0
            while row < decodedSize.height {
                let count = try readBand(into: band, maximumRows: min(bandRows, decodedSize.height - row), format: format, readRows)
                resampler.push(rows: UnsafeRawBufferPointer(band), count: count, stride: rowBytes, into: output)
                row += count
            }
            guard resampler.isComplete else {
                throw ImageCodingError(.corruptData, format: format, "the decoder ended before the last output row")
            }
        }
    }

    private static func readBand(
        into buffer: UnsafeMutableBufferPointer<UInt8>, maximumRows: Int, format: ImageFormat,
        _ readRows: (UnsafeMutableBufferPointer<UInt8>, Int) throws(ImageCodingError) -> Int
    ) throws(ImageCodingError) -> Int {
        let count = try readRows(buffer, maximumRows)
        guard count > 0, count <= maximumRows else {
            throw ImageCodingError(.corruptData, format: format, "the decoder returned \(count) rows where up to \(maximumRows) were due")
        }
        return count
    }
}
