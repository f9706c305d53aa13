import Foundation

/// The only code that calls poppler-glib (and, for it, cairo and GLib), through ``VectorFunctions``.
/// Errors come back as `GError`s and cairo status codes; every object is released by a `defer`.
enum LibPoppler {
    /// poppler-glib's functions, with cairo's and GLib's from the libraries it loads.
    struct Functions: Sendable {
        typealias Object = VectorFunctions.Object
        let common: VectorFunctions
        let documentFromBytes: @convention(c) (Object?, UnsafePointer<CChar>?, VectorFunctions.ErrorOut?) -> Object?
        let pageCount: @convention(c) (Object?) -> Int32
        let page: @convention(c) (Object?, Int32) -> Object?
        let pageSize: @convention(c) (Object?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Void
        let render: @convention(c) (Object?, Object?) -> Void

        init() throws(ImageCodingError) {
            let library = try DynamicLibrary(["libpoppler-glib.so.8", "libpoppler-glib.so"], package: "libpoppler-glib8", for: .pdf)
            common = try VectorFunctions(library)
            documentFromBytes = try library.function("poppler_document_new_from_bytes")
            pageCount = try library.function("poppler_document_get_n_pages")
            page = try library.function("poppler_document_get_page")
            pageSize = try library.function("poppler_page_get_size")
            render = try library.function("poppler_page_render")
        }
    }

    /// Opened on the first PDF, once per process.
    static let functions = Result { () throws(ImageCodingError) in try Functions() }

    /// Parses `bytes` and draws page `pageIndex` on white, at the size the options ask for.
    static func rasterize(_ bytes: UnsafeRawBufferPointer, pageIndex: Int, options: ImageDecodingOptions) throws -> PixelBuffer {
        let poppler = try functions.get(), cairo = poppler.common
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw ImageCodingError(.truncatedData, format: .pdf, "no data")
        }
        guard let gbytes = cairo.bytesNew(base, bytes.count) else {
            throw ImageCodingError(.corruptData, format: .pdf, "GLib could not hold the data")
        }
        defer { cairo.bytesUnref(gbytes) }
        var error: UnsafeMutableRawPointer?
        guard let document = poppler.documentFromBytes(gbytes, nil, &error) else {
            throw ImageCodingError(.corruptData, format: .pdf, cairo.consume(error: error) ?? "poppler could not open the document")
        }
        defer { cairo.objectUnref(document) }

        let pageCount = Int(poppler.pageCount(document))
        guard pageIndex < pageCount, let page = poppler.page(document, Int32(pageIndex)) else {
            throw ImageCodingError(.corruptData, format: .pdf, "the document has \(pageCount) pages, not a page \(pageIndex + 1)")
        }
        defer { cairo.objectUnref(page) }
        var pageWidth = 0.0, pageHeight = 0.0
        poppler.pageSize(page, &pageWidth, &pageHeight)
        guard pageWidth > 0, pageHeight > 0, pageWidth.isFinite, pageHeight.isFinite else {
            throw ImageCodingError(.invalidDimensions, format: .pdf, "the page is \(pageWidth)×\(pageHeight) points")
        }
        let scale = options.scale.map { max($0, .leastNonzeroMagnitude) } ?? 1
        let intrinsic = (width: pageWidth * scale, height: pageHeight * scale)
        let size = try CairoPixels.checkedSize(CairoPixels.renderSize(intrinsic: intrinsic, options: options),
                                               format: .pdf, limit: options.maximumPixelCount)

        return try cairo.render(size, format: .pdf) { context in
            cairo.setSourceRGB(context, 1, 1, 1) // white paper, as pdftoppm and vips
            cairo.paint(context)
            cairo.scale(context, Double(size.width) / pageWidth, Double(size.height) / pageHeight)
            poppler.render(page, context)
        }
    }
}
