import WebImageKit

/// A result format the server can encode, named as imgproxy names it (`format` option or `@ext`/`.ext`).
public enum OutputFormat: String, Sendable, Hashable, Encodable, CaseIterable {
    /// JPEG (`jpg` or `jpeg`).
    case jpeg = "jpg"
    /// PNG.
    case png
    /// GIF, animated or not.
    case gif
    /// WebP, animated or not.
    case webp
    /// AVIF, sequences included.
    case avif
    /// HEIC (HEVC in HEIF), still.
    case heic
    /// JPEG XL, animated or not.
    case jxl
    /// TIFF, one page: JPEG-compressed when opaque, Deflate with alpha.
    case tiff
    /// BMP, uncompressed.
    case bmp
    /// ICO with one PNG entry, at most 256×256.
    case ico

    /// The formats imgproxy knows but this server cannot encode: named in the error rather than called unknown.
    static let knownButUnsupported: Set<String> = ["svg", "tif", "pdf", "mp4", "best"]

    /// Parses an imgproxy extension name (case-sensitive, as imgproxy is); `jpeg` is ``jpeg`` too.
    init?(extension name: String) {
        if name == "jpeg" {
            self = .jpeg
        } else {
            self.init(rawValue: name)
        }
    }
}

extension OutputFormat {
    /// The library's format.
    var imageFormat: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .gif: .gif
        case .webp: .webp
        case .avif: .avif
        case .heic: .heic
        case .jxl: .jpegXL
        case .tiff: .tiff
        case .bmp: .bmp
        case .ico: .ico
        }
    }
}
