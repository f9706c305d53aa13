/// Turns the pixels of a cairo `CAIRO_FORMAT_ARGB32` image surface (native-endian 32-bit words,
/// alpha premultiplied) into the library's straight-alpha RGBA bytes. Pure Swift, so the SVG and
/// PDF renderers share it without importing each other's C modules.
enum CairoPixels {
    /// Copies `height` rows of `width` ARGB32 pixels `stride` bytes apart, un-premultiplying them.
    /// - Parameters:
    ///   - data: the surface's first byte (`cairo_image_surface_get_data`), after `cairo_surface_flush`.
    ///   - stride: bytes from one row to the next (`cairo_image_surface_get_stride`).
    ///   - width: pixels per row.
    ///   - height: rows.
    static func straightRGBA(from data: UnsafeRawPointer, stride: Int, width: Int, height: Int) -> PixelBuffer {
        var opaque = true
        let pixels = PixelBuffer(width: width, height: height, hasAlpha: true) { buffer in
            guard let target = buffer.baseAddress else { return }
            for row in 0..<height {
                let source = data + row * stride
                var offset = row * width * PixelBuffer.bytesPerPixel
                for column in 0..<width {
                    let word = source.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self)
                    let alpha = Int(word >> 24)
                    var (red, green, blue) = (Int(word >> 16 & 0xFF), Int(word >> 8 & 0xFF), Int(word & 0xFF))
                    if alpha != 255 {
                        opaque = false
                        if alpha != 0 {
                            red = min(255, (red * 255 + alpha / 2) / alpha)
                            green = min(255, (green * 255 + alpha / 2) / alpha)
                            blue = min(255, (blue * 255 + alpha / 2) / alpha)
                        }
                    }
                    target[offset] = UInt8(red)
                    target[offset + 1] = UInt8(green)
                    target[offset + 2] = UInt8(blue)
                    target[offset + 3] = UInt8(alpha)
                    offset += 4
                }
            }
        }
        return opaque ? PixelBuffer(width: width, height: height, hasAlpha: false, bytes: pixels.bytes) : pixels
    }

    /// The size to rasterize a vector image of `intrinsic` size (in pixels, possibly fractional) at:
    /// the thumbnail size of `options` (fitted, covered or stretched as its mode says;
    /// a vector image is also enlarged to it), or else the intrinsic size rounded up.
    static func renderSize(intrinsic: (width: Double, height: Double), options: ImageDecodingOptions) -> (width: Double, height: Double) {
        guard let bounds = options.thumbnailPixelSize, bounds.width > 0, bounds.height > 0 else {
            return (intrinsic.width.rounded(.up), intrinsic.height.rounded(.up))
        }
        let widthRatio = Double(bounds.width) / intrinsic.width, heightRatio = Double(bounds.height) / intrinsic.height
        let ratio: Double
        switch options.thumbnailMode {
        case .stretch: return (Double(bounds.width), Double(bounds.height))
        case .fit: ratio = min(widthRatio, heightRatio)
        case .fill: ratio = max(widthRatio, heightRatio)
        }
        return (max(1, (intrinsic.width * ratio).rounded()), max(1, (intrinsic.height * ratio).rounded()))
    }

    /// Checks a rasterization size (finite, at least one pixel, within the pixel limit) and returns it in whole pixels.
    static func checkedSize(_ size: (width: Double, height: Double), format: ImageFormat, limit: Int) throws -> PixelSize {
        guard size.width.isFinite, size.height.isFinite, size.width >= 1, size.height >= 1 else {
            throw ImageCodingError(.invalidDimensions, format: format, "cannot rasterize at \(size.width)×\(size.height)")
        }
        let cap = Double(PixelBuffer.maximumSide)
        let width = Int(min(size.width, cap)), height = Int(min(size.height, cap))
        guard size.width <= cap, size.height <= cap, width.multipliedReportingOverflow(by: height).partialValue <= limit,
              Int32(exactly: width) != nil, Int32(exactly: height) != nil else {
            throw ImageCodingError.tooLarge(format, width: width, height: height, limit: limit)
        }
        return PixelSize(width: width, height: height)
    }
}
