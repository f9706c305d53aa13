import CVector
import Foundation

/// The only code that calls poppler-glib (and, for it, cairo and GLib). Errors come back as `GError`s
/// and cairo status codes; every object is released by a `defer`.
enum LibPoppler {
    /// Parses `bytes` and draws page `pageIndex` on white, at the size the options ask for.
    static func rasterize(_ bytes: UnsafeRawBufferPointer, pageIndex: Int, options: ImageDecodingOptions) throws -> PixelBuffer {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw ImageCodingError(.truncatedData, format: .pdf, "no data")
        }
        guard let gbytes = g_bytes_new(base, gsize(bytes.count)) else {
            throw ImageCodingError(.corruptData, format: .pdf, "GLib could not hold the data")
        }
        defer { g_bytes_unref(gbytes) }
        var error: UnsafeMutablePointer<GError>?
        let document = poppler_document_new_from_bytes(gbytes, nil, &error)
        guard let document else { throw codingError(error, "poppler could not open the document") }
        defer { g_object_unref(UnsafeMutableRawPointer(document)) }

        let pageCount = Int(poppler_document_get_n_pages(document))
        guard pageIndex < pageCount, let page = poppler_document_get_page(document, Int32(pageIndex)) else {
            throw ImageCodingError(.corruptData, format: .pdf, "the document has \(pageCount) pages, not a page \(pageIndex + 1)")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var pageWidth = 0.0, pageHeight = 0.0
        poppler_page_get_size(page, &pageWidth, &pageHeight)
        guard pageWidth > 0, pageHeight > 0, pageWidth.isFinite, pageHeight.isFinite else {
            throw ImageCodingError(.invalidDimensions, format: .pdf, "the page is \(pageWidth)×\(pageHeight) points")
        }
        let scale = options.scale.map { max($0, .leastNonzeroMagnitude) } ?? 1
        let intrinsic = (width: pageWidth * scale, height: pageHeight * scale)
        let size = try CairoPixels.checkedSize(CairoPixels.renderSize(intrinsic: intrinsic, options: options),
                                               format: .pdf, limit: options.maximumPixelCount)

        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height)) else {
            throw ImageCodingError(.corruptData, format: .pdf, "cairo could not create a surface")
        }
        defer { cairo_surface_destroy(surface) }
        try checkSurface(surface)
        guard let context = cairo_create(surface) else {
            throw ImageCodingError(.corruptData, format: .pdf, "cairo could not create a context")
        }
        defer { cairo_destroy(context) }
        cairo_set_source_rgb(context, 1, 1, 1) // white paper, as pdftoppm and vips
        cairo_paint(context)
        cairo_scale(context, Double(size.width) / pageWidth, Double(size.height) / pageHeight)
        poppler_page_render(page, context)
        cairo_surface_flush(surface)
        try checkSurface(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            throw ImageCodingError(.corruptData, format: .pdf, "cairo surface has no pixels")
        }
        return CairoPixels.straightRGBA(from: data, stride: Int(cairo_image_surface_get_stride(surface)),
                                        width: size.width, height: size.height)
    }

    private static func checkSurface(_ surface: OpaquePointer) throws {
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ImageCodingError(.corruptData, format: .pdf, "cairo: " + String(cString: cairo_status_to_string(status)))
        }
    }

    /// Turns a `GError` (freed here) into ours: a damaged or cut file is `.corruptData`, with poppler's message.
    private static func codingError(_ error: UnsafeMutablePointer<GError>?, _ fallback: String) -> ImageCodingError {
        guard let error else { return ImageCodingError(.corruptData, format: .pdf, fallback) }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? fallback
        return ImageCodingError(.corruptData, format: .pdf, message)
    }
}
