import CVector
import Foundation

/// The only code that calls librsvg (and, for it, cairo and GLib). Errors come back as `GError`s and
/// cairo status codes; every object is released by a `defer`.
enum LibRSVG {
    /// Parses `bytes` and draws the document on a new ARGB32 surface of the size the options ask for.
    static func rasterize(_ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions) throws -> PixelBuffer {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw ImageCodingError(.truncatedData, format: .svg, "no data")
        }
        // A memory stream and no base file: librsvg then loads no external file or URL.
        guard let stream = g_memory_input_stream_new_from_data(base, bytes.count, nil) else {
            throw ImageCodingError(.corruptData, format: .svg, "GLib could not create a memory stream")
        }
        defer { g_object_unref(stream) }
        var error: UnsafeMutablePointer<GError>?
        let handle = rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error)
        guard let handle else { throw codingError(error, "librsvg could not parse the document") }
        defer { g_object_unref(handle) }

        let intrinsic = try intrinsicSize(of: handle)
        let size = try CairoPixels.checkedSize(CairoPixels.renderSize(intrinsic: intrinsic, options: options),
                                               format: .svg, limit: options.maximumPixelCount)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height)) else {
            throw ImageCodingError(.corruptData, format: .svg, "cairo could not create a surface")
        }
        defer { cairo_surface_destroy(surface) }
        try checkSurface(surface)
        guard let context = cairo_create(surface) else {
            throw ImageCodingError(.corruptData, format: .svg, "cairo could not create a context")
        }
        defer { cairo_destroy(context) }
        // Draw the document at its intrinsic size, scaled (non-uniformly when stretching) to the surface.
        cairo_scale(context, Double(size.width) / intrinsic.width, Double(size.height) / intrinsic.height)
        var viewport = RsvgRectangle(x: 0, y: 0, width: intrinsic.width, height: intrinsic.height)
        guard rsvg_handle_render_document(handle, context, &viewport, &error) != 0 else {
            throw codingError(error, "librsvg could not render the document")
        }
        cairo_surface_flush(surface)
        try checkSurface(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            throw ImageCodingError(.corruptData, format: .svg, "cairo surface has no pixels")
        }
        return CairoPixels.straightRGBA(from: data, stride: Int(cairo_image_surface_get_stride(surface)),
                                        width: size.width, height: size.height)
    }

    /// The document's size in pixels: `width`/`height`, or else the `viewBox`.
    private static func intrinsicSize(of handle: UnsafeMutablePointer<RsvgHandle>) throws -> (width: Double, height: Double) {
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0, width > 0, height > 0 {
            return (width, height)
        }
        var hasViewBox: gboolean = 0
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
        guard hasViewBox != 0, viewBox.width > 0, viewBox.height > 0, viewBox.width.isFinite, viewBox.height.isFinite else {
            throw ImageCodingError(.invalidDimensions, format: .svg, "the document has no absolute width and height and no viewBox")
        }
        return (viewBox.width, viewBox.height)
    }

    private static func checkSurface(_ surface: OpaquePointer) throws {
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ImageCodingError(.corruptData, format: .svg, "cairo: " + String(cString: cairo_status_to_string(status)))
        }
    }

    /// Turns a `GError` (freed here) into ours: `.corruptData`, with librsvg's message.
    private static func codingError(_ error: UnsafeMutablePointer<GError>?, _ fallback: String) -> ImageCodingError {
        guard let error else { return ImageCodingError(.corruptData, format: .svg, fallback) }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? fallback
        return ImageCodingError(.corruptData, format: .svg, message)
    }
}
