public import Foundation

/// Rasterizes one page of a PDF document through poppler-glib 22.12 and cairo, as SDWebImage's PDF coder does.
///
/// The page (the first, or ``Configuration/pageIndex``) is drawn on white paper, as `pdftoppm` and
/// libvips draw it, at `ImageDecodingOptions.thumbnailPixelSize` when one is given (fitted inside
/// it, or covering or stretched to it as `ImageDecodingOptions.thumbnailMode` says; a page is
/// enlarged too), and otherwise at its size at 72 dpi times `ImageDecodingOptions.scale` (a US
/// Letter page is 612×792 pixels at scale 1). Either size is checked against
/// `ImageDecodingOptions.maximumPixelCount` before any pixel memory is allocated.
///
/// `ImageDecodingOptions` has no page field, so the page is chosen per coder: register a
/// `PDFCoder(configuration: .init(pageIndex: 2))` to read the third page. Encrypted documents (which
/// need a password) fail with `ImageCodingError.Code.corruptData`; a file without its `%%EOF` end
/// marker is cut short and fails with `ImageCodingError.Code.truncatedData`. Encoding PDF is not offered.
public struct PDFCoder: ImageCoding {
    /// Settings that belong to the coder rather than to one call.
    public struct Configuration: Hashable, Sendable {
        /// The zero-based index of the page to draw; default 0, the first page. A document with fewer
        /// pages fails with `ImageCodingError.Code.corruptData`.
        public var pageIndex: Int

        /// Creates a configuration.
        /// - Parameter pageIndex: the zero-based index of the page to draw (negative values mean 0).
        public init(pageIndex: Int = 0) {
            self.pageIndex = max(0, pageIndex)
        }
    }

    /// The coder's settings.
    public let configuration: Configuration

    /// Creates a coder that draws the first page.
    public init() {
        self.init(configuration: Configuration())
    }

    /// Creates a coder with the given configuration.
    /// - Parameter configuration: which page to draw.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .pdf
    }

    public func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
        guard ImageFormat(detecting: data) == .pdf else {
            throw ImageCodingError(.unsupportedFormat, format: ImageFormat(detecting: data), "not a PDF document")
        }
        guard Self.hasEndMarker(data) else {
            throw ImageCodingError(.truncatedData, format: .pdf, "no %%EOF in the last 1024 bytes: the file is cut short")
        }
        let pixels = try data.withUnsafeBytes {
            try LibPoppler.rasterize($0, pageIndex: configuration.pageIndex, options: options)
        }
        return options.makeImage(frames: [ImageFrame(pixels: pixels)], format: .pdf, data: data)
    }

    /// Whether `%%EOF` is in the last 1024 bytes, where every complete PDF (incremental updates and
    /// linearized files included) ends; poppler would otherwise draw whatever a cut file still holds.
    static func hasEndMarker(_ data: Data) -> Bool {
        let tail = data.suffix(1024)
        return tail.range(of: Data("%%EOF".utf8)) != nil
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        false
    }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodingOptions) throws -> Data {
        throw ImageCodingError(.encodingFailed, format: format, "PDFCoder does not encode")
    }
}
