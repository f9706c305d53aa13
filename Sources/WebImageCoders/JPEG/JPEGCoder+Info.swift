extension JPEGCoder {
    /// How much libjpeg shrinks the image while decoding, in the DCT (no separate resampling pass).
    public enum DCTScale: Int, Sendable, CaseIterable {
        /// The stored size.
        case full = 1
        /// Half of each side, rounded up.
        case half = 2
        /// A quarter of each side, rounded up.
        case quarter = 4
        /// An eighth of each side, rounded up.
        case eighth = 8

        /// The largest scale whose output still covers `target` (each side at least as large), for
        /// shrink-on-load thumbnails; `.full` when the image is not larger than the target.
        public static func largest(for size: PixelSize, covering target: PixelSize) -> DCTScale {
            allCases.reversed().first { scale in
                let scaled = scale.scaledSize(of: size)
                return scaled.width >= target.width && scaled.height >= target.height
            } ?? .full
        }

        /// The size libjpeg decodes `size` to at this scale: each side divided and rounded up.
        public func scaledSize(of size: PixelSize) -> PixelSize {
            PixelSize(width: (size.width + rawValue - 1) / rawValue, height: (size.height + rawValue - 1) / rawValue)
        }
    }

    /// The colour model of a JPEG's encoded data.
    public enum ColorSpace: Sendable, Hashable {
        /// One component.
        case gray
        /// Luma and chroma, the usual case.
        case yCbCr
        /// Red, green and blue without a colour transform.
        case rgb
        /// Four ink components.
        case cmyk
        /// CMYK with the first three inks stored as luma and chroma (Adobe transform 2).
        case ycck
        /// Anything libjpeg cannot convert (decoding fails).
        case unknown
    }

    /// What a JPEG header declares.
    public struct Info: Sendable, Hashable {
        /// The stored size in pixels.
        public var size: PixelSize
        /// The size a decode at the requested ``DCTScale`` produces.
        public var outputSize: PixelSize
        /// The number of colour components (1, 3 or 4).
        public var componentCount: Int
        /// The colour model of the encoded data.
        public var colorSpace: ColorSpace
        /// Whether the file is progressive (several scans of increasing detail).
        public var isProgressive: Bool
        /// Whether an Adobe APP14 marker is present. CMYK is read as inverted inks either way, as browsers do.
        public var hasAdobeMarker: Bool

        /// Creates header information.
        public init(
            size: PixelSize, outputSize: PixelSize, componentCount: Int, colorSpace: ColorSpace,
            isProgressive: Bool, hasAdobeMarker: Bool
        ) {
            self.size = size
            self.outputSize = outputSize
            self.componentCount = componentCount
            self.colorSpace = colorSpace
            self.isProgressive = isProgressive
            self.hasAdobeMarker = hasAdobeMarker
        }
    }
}
