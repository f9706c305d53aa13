import WebImageKit

extension ImageServerConfiguration {
    /// What results keep of their source's metadata and how the encoders work, with imgproxy's defaults
    /// (`IMGPROXY_STRIP_METADATA` … `IMGPROXY_JXL_EFFORT`). The URL's `strip_metadata`, `keep_copyright` and
    /// `strip_color_profile` options override the first three.
    public struct Encoding: Sendable, Hashable {
        /// Whether EXIF, XMP and IPTC are left out of results (`IMGPROXY_STRIP_METADATA`); default true.
        public var stripsMetadata = true
        /// Whether the EXIF Artist and Copyright fields stay when metadata is stripped (`IMGPROXY_KEEP_COPYRIGHT`);
        /// default true.
        public var keepsCopyright = true
        /// Whether colours are converted to sRGB and the profile left out (`IMGPROXY_STRIP_COLOR_PROFILE`); default
        /// true. When false, JPEG, PNG, WebP, AVIF and TIFF results keep the source's pixels and profile; other formats
        /// are still converted to sRGB.
        public var stripsColorProfile = true
        /// Whether JPEG results are progressive (`IMGPROXY_JPEG_PROGRESSIVE`); default false.
        public var progressiveJPEG = false
        /// Whether PNG results are Adam7-interlaced (`IMGPROXY_PNG_INTERLACED`); default false.
        public var interlacedPNG = false
        /// Whether PNG results are 8-bit palette images (`IMGPROXY_PNG_QUANTIZE`); default false.
        public var quantizesPNG = false
        /// The most colours a quantized PNG's palette has, 2–256 (`IMGPROXY_PNG_QUANTIZATION_COLORS`); default 256.
        public var pngQuantizationColors = 256
        /// libwebp's method, 0 (fastest) to 6 (smallest) (`IMGPROXY_WEBP_EFFORT`); default 4.
        public var webpEffort = 4
        /// The AVIF encoder's speed, 0 (slowest, smallest) to 9 (`IMGPROXY_AVIF_SPEED`); default 8.
        public var avifSpeed = 8
        /// libjxl's effort, 1 (fastest) to 9 (smallest) (`IMGPROXY_JXL_EFFORT`); default 4.
        public var jxlEffort = 4

        /// Creates imgproxy's defaults.
        public init() {}

        /// The palette size PNG results are quantized to, or nil for full colour.
        var pngPaletteColors: Int? { quantizesPNG ? pngQuantizationColors : nil }

        /// The library's 0…1 effort for `format`, from the setting on that format's own scale; nil for formats
        /// without one (the encoder's default).
        func effort(for format: ImageFormat) -> Double? {
            switch format {
            case .webp: Double(webpEffort) / 6
            case .avif: Double(10 - avifSpeed) / 10
            case .jpegXL: Double(jxlEffort - 1) / 8
            default: nil
            }
        }
    }
}

extension ImageServerConfiguration {
    /// The settings that change a result's bytes (orientation, thumbnails, shrink-on-load, qualities, formats,
    /// encoders, the watermark, animation limits) and the ETag buster, as text: part of every result key, so that
    /// a restart with other settings does not serve results made under the old ones.
    var resultSettings: String {
        let qualities = formatQuality.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\($0.value)" }
        return [
            "\(autoRotate)", "\(enforceThumbnail)", "\(shrinksOnLoad)", "\(defaultQuality)", qualities.joined(separator: ","),
            preferredFormats.map(\.rawValue).joined(separator: ","), "\(encoding)", watermark?.fingerprint ?? "-",
            "\(watermarkOpacity)", "\(maximumAnimationFrames ?? 0)", "\(maximumAnimationBytes)", etagBuster,
        ].joined(separator: "|")
    }
}
