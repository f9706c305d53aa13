import Foundation

/// The only code that calls librsvg (and, for it, cairo and GLib), through ``VectorFunctions``. Errors
/// come back as `GError`s and cairo status codes; every object is released by a `defer`.
enum LibRSVG {
    /// librsvg's functions, with cairo's and GLib's from the libraries it loads.
    struct Functions: Sendable {
        typealias Object = VectorFunctions.Object
        let common: VectorFunctions
        let newFromStream: @convention(c) (Object?, Object?, Int32, Object?, VectorFunctions.ErrorOut?) -> Object?
        let intrinsicSizeInPixels: @convention(c) (Object?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Int32
        /// (handle, has width, width, has height, height, has viewBox, viewBox): `RsvgLength` and `RsvgRectangle` as raw memory.
        let intrinsicDimensions: @convention(c) (
            Object?, UnsafeMutablePointer<Int32>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int32>?, UnsafeMutableRawPointer?,
            UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Double>?
        ) -> Void
        /// (handle, cairo context, viewport as an `RsvgRectangle` of four doubles, error).
        let renderDocument: @convention(c) (Object?, Object?, UnsafePointer<Double>?, VectorFunctions.ErrorOut?) -> Int32

        init() throws(ImageCodingError) {
            let library = try DynamicLibrary(["librsvg-2.so.2", "librsvg-2.so"], package: "librsvg2-2", for: .svg)
            common = try VectorFunctions(library)
            newFromStream = try library.function("rsvg_handle_new_from_stream_sync")
            intrinsicSizeInPixels = try library.function("rsvg_handle_get_intrinsic_size_in_pixels")
            intrinsicDimensions = try library.function("rsvg_handle_get_intrinsic_dimensions")
            renderDocument = try library.function("rsvg_handle_render_document")
        }
    }

    /// Opened on the first SVG, once per process.
    static let functions = Result { () throws(ImageCodingError) in try Functions() }

    /// Parses `bytes` and draws the document on a new ARGB32 surface of the size the options ask for.
    static func rasterize(_ bytes: UnsafeRawBufferPointer, options: ImageDecodingOptions) throws -> PixelBuffer {
        let rsvg = try functions.get(), cairo = rsvg.common
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw ImageCodingError(.truncatedData, format: .svg, "no data")
        }
        // A memory stream and no base file: librsvg then loads no external file or URL.
        guard let stream = cairo.memoryInputStream(base, bytes.count, nil) else {
            throw ImageCodingError(.corruptData, format: .svg, "GLib could not create a memory stream")
        }
        defer { cairo.objectUnref(stream) }
        var error: UnsafeMutableRawPointer?
        guard let handle = rsvg.newFromStream(stream, nil, 0 /* RSVG_HANDLE_FLAGS_NONE */, nil, &error) else {
            throw codingError(cairo.consume(error: error), "librsvg could not parse the document")
        }
        defer { cairo.objectUnref(handle) }

        let intrinsic = try intrinsicSize(of: handle, rsvg)
        let size = try CairoPixels.checkedSize(CairoPixels.renderSize(intrinsic: intrinsic, options: options),
                                               format: .svg, limit: options.maximumPixelCount)
        return try cairo.render(size, format: .svg) { context in
            // Draw the document at its intrinsic size, scaled (non-uniformly when stretching) to the surface.
            cairo.scale(context, Double(size.width) / intrinsic.width, Double(size.height) / intrinsic.height)
            let viewport = [0, 0, intrinsic.width, intrinsic.height]
            guard rsvg.renderDocument(handle, context, viewport, &error) != 0 else {
                throw codingError(cairo.consume(error: error), "librsvg could not render the document")
            }
        }
    }

    /// The document's size in pixels: `width`/`height`, or else the `viewBox`.
    private static func intrinsicSize(of handle: OpaquePointer, _ rsvg: Functions) throws -> (width: Double, height: Double) {
        var width = 0.0, height = 0.0
        if rsvg.intrinsicSizeInPixels(handle, &width, &height) != 0, width > 0, height > 0 {
            return (width, height)
        }
        var hasViewBox: Int32 = 0
        var viewBox = [Double](repeating: 0, count: 4) // x, y, width, height
        rsvg.intrinsicDimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
        let (boxWidth, boxHeight) = (viewBox[2], viewBox[3])
        guard hasViewBox != 0, boxWidth > 0, boxHeight > 0, boxWidth.isFinite, boxHeight.isFinite else {
            throw ImageCodingError(.invalidDimensions, format: .svg, "the document has no absolute width and height and no viewBox")
        }
        return (boxWidth, boxHeight)
    }

    /// Ours for librsvg's message: `.corruptData`.
    private static func codingError(_ message: String?, _ fallback: String) -> ImageCodingError {
        ImageCodingError(.corruptData, format: .svg, message ?? fallback)
    }
}
