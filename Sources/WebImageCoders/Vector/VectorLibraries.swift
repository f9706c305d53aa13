/// librsvg and poppler-glib, with the cairo and GLib functions they draw and report through, opened
/// with `dlopen` the first time an SVG or PDF is decoded.
///
/// Why not linked: together they bring about 45 shared libraries (cairo, GLib, pango, harfbuzz,
/// fontconfig, X11, NSS…) that every process using WebImageCoders would map and relocate at start,
/// whether it ever draws a vector image or not: 15 MB of resident memory and about 9 ms of start-up.
/// Opened on demand, they cost nothing until used. Only the 26 functions below are called, through
/// pointers typed after their C declarations; the objects they return stay opaque.
struct VectorFunctions: @unchecked Sendable {
    // Safety: function pointers into libraries that are never closed; calling them is as thread-safe
    // as the libraries themselves (each decode uses objects of its own).
    typealias Object = OpaquePointer
    typealias ErrorOut = UnsafeMutablePointer<UnsafeMutableRawPointer?>

    // GLib / GIO / GObject
    let memoryInputStream: @convention(c) (UnsafeRawPointer?, Int, UnsafeRawPointer?) -> Object?
    let bytesNew: @convention(c) (UnsafeRawPointer?, Int) -> Object?
    let bytesUnref: @convention(c) (Object?) -> Void
    let objectUnref: @convention(c) (Object?) -> Void
    let errorFree: @convention(c) (UnsafeMutableRawPointer?) -> Void
    // cairo
    let imageSurfaceCreate: @convention(c) (Int32, Int32, Int32) -> Object?
    let surfaceDestroy: @convention(c) (Object?) -> Void
    let surfaceStatus: @convention(c) (Object?) -> Int32
    let statusToString: @convention(c) (Int32) -> UnsafePointer<CChar>?
    let surfaceFlush: @convention(c) (Object?) -> Void
    let imageSurfaceData: @convention(c) (Object?) -> UnsafeMutablePointer<UInt8>?
    let imageSurfaceStride: @convention(c) (Object?) -> Int32
    let create: @convention(c) (Object?) -> Object?
    let destroy: @convention(c) (Object?) -> Void
    let scale: @convention(c) (Object?, Double, Double) -> Void
    let setSourceRGB: @convention(c) (Object?, Double, Double, Double) -> Void
    let paint: @convention(c) (Object?) -> Void

    /// `CAIRO_FORMAT_ARGB32` and `CAIRO_STATUS_SUCCESS`.
    static let formatARGB32: Int32 = 0, statusSuccess: Int32 = 0

    /// Looks the functions up in `library` and the libraries it depends on.
    init(_ library: DynamicLibrary) throws(ImageCodingError) {
        memoryInputStream = try library.function("g_memory_input_stream_new_from_data")
        bytesNew = try library.function("g_bytes_new")
        bytesUnref = try library.function("g_bytes_unref")
        objectUnref = try library.function("g_object_unref")
        errorFree = try library.function("g_error_free")
        imageSurfaceCreate = try library.function("cairo_image_surface_create")
        surfaceDestroy = try library.function("cairo_surface_destroy")
        surfaceStatus = try library.function("cairo_surface_status")
        statusToString = try library.function("cairo_status_to_string")
        surfaceFlush = try library.function("cairo_surface_flush")
        imageSurfaceData = try library.function("cairo_image_surface_get_data")
        imageSurfaceStride = try library.function("cairo_image_surface_get_stride")
        create = try library.function("cairo_create")
        destroy = try library.function("cairo_destroy")
        scale = try library.function("cairo_scale")
        setSourceRGB = try library.function("cairo_set_source_rgb")
        paint = try library.function("cairo_paint")
    }

    /// The message of a `GError` (its third field, after the 32-bit domain and code), which is then freed.
    func consume(error: UnsafeMutableRawPointer?) -> String? {
        guard let error else { return nil }
        defer { errorFree(error) }
        return error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) }
    }

    /// Creates a `size` ARGB32 surface, lets `draw` paint on its cairo context, and returns the pixels as
    /// straight RGBA; cairo's failures are `.corruptData` errors of `format`.
    func render(_ size: PixelSize, format: ImageFormat, draw: (Object) throws -> Void) throws -> PixelBuffer {
        guard let surface = imageSurfaceCreate(Self.formatARGB32, Int32(size.width), Int32(size.height)) else {
            throw ImageCodingError(.corruptData, format: format, "cairo could not create a surface")
        }
        defer { surfaceDestroy(surface) }
        try check(surface, format)
        guard let context = create(surface) else {
            throw ImageCodingError(.corruptData, format: format, "cairo could not create a context")
        }
        defer { destroy(context) }
        try draw(context)
        surfaceFlush(surface)
        try check(surface, format)
        guard let data = imageSurfaceData(surface) else {
            throw ImageCodingError(.corruptData, format: format, "cairo surface has no pixels")
        }
        return CairoPixels.straightRGBA(from: data, stride: Int(imageSurfaceStride(surface)), width: size.width, height: size.height)
    }

    private func check(_ surface: Object, _ format: ImageFormat) throws {
        let status = surfaceStatus(surface)
        guard status != Self.statusSuccess else { return }
        let description = statusToString(status).map { String(cString: $0) } ?? "status \(status)"
        throw ImageCodingError(.corruptData, format: format, "cairo: " + description)
    }
}
