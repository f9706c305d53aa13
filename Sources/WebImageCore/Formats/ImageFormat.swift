/// An image file format, with its MIME type and usual file extension.
///
/// Detect it from bytes with `ImageFormat(detecting:)`; `.unknown` is an ordinary value, never an error.
public enum ImageFormat: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case jpeg
    case png
    case gif
    case webp
    case tiff
    case heic
    case heif
    case avif
    case bmp
    case ico
    case svg
    case pdf
    case jpegXL = "jxl"
    /// Data that matches no known signature.
    case unknown

    /// The IANA media type, such as `image/jpeg`; `application/octet-stream` for `.unknown`.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .tiff: "image/tiff"
        case .heic: "image/heic"
        case .heif: "image/heif"
        case .avif: "image/avif"
        case .bmp: "image/bmp"
        case .ico: "image/vnd.microsoft.icon"
        case .svg: "image/svg+xml"
        case .pdf: "application/pdf"
        case .jpegXL: "image/jxl"
        case .unknown: "application/octet-stream"
        }
    }

    /// The usual file extension without the dot, such as `jpg`; empty for `.unknown`.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .tiff: "tiff"
        case .jpegXL: "jxl"
        case .unknown: ""
        default: rawValue
        }
    }

    /// A short upper-case name for messages, such as `JPEG`.
    public var displayName: String {
        switch self {
        case .jpegXL: "JPEG XL"
        case .unknown: "unknown format"
        default: rawValue.uppercased()
        }
    }

    public var description: String { rawValue }

    /// The format for a file extension (with or without the dot, any case); `.unknown` when none matches.
    public init(fileExtension: String) {
        var ext = fileExtension.lowercased()
        if ext.hasPrefix(".") { ext.removeFirst() }
        switch ext {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "tif", "tiff": self = .tiff
        case "heics": self = .heic
        case "heifs": self = .heif
        case "dib": self = .bmp
        case "cur": self = .ico
        case "svgz": self = .svg
        case "": self = .unknown
        default: self = ImageFormat(rawValue: ext).flatMap { $0 == .unknown ? nil : $0 } ?? .unknown
        }
    }

    /// The format for a MIME type, ignoring parameters and case (`image/jpeg; q=0.8`); `.unknown` when none matches.
    public init(mimeType: String) {
        let bare = mimeType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let type = bare.trimmingWhitespace().lowercased()
        switch type {
        case "image/jpg", "image/pjpeg": self = .jpeg
        case "image/x-icon", "image/ico": self = .ico
        case "image/x-ms-bmp", "image/x-bmp": self = .bmp
        case "image/heic-sequence": self = .heic
        case "image/heif-sequence": self = .heif
        case "image/avif-sequence": self = .avif
        default: self = ImageFormat.allCases.first { $0 != .unknown && $0.mimeType == type } ?? .unknown
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }
}
