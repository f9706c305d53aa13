import CAVIF
import CHEIF
import CJXL
import CTIFF

/// libheif, libjxl, libavif and libtiff, opened with `dlopen` the first time a HEIC/HEIF, JPEG XL, AVIF or
/// TIFF image is decoded or encoded, like the vector libraries (``VectorFunctions``).
///
/// Why not linked: with the codecs behind them (x265, libde265, aom, rav1e, SVT-AV1, dav1d, libgav1,
/// libyuv, highway, brotli) they are about twenty shared libraries that every process would map,
/// relocate and initialize at start whatever it decodes: about 3 MB of resident memory and 2.5 ms of
/// highway's static initializers alone. The functions are called through the tables the module shims
/// declare (`wik_heif_functions`…): one pointer per function, typed after its C declaration, so the
/// call sites read like calls to the library (`lib.heif_context_alloc()`). libtiff and the five libraries it
/// brings (jbig, Lerc, zstd, lzma, deflate) cost every start 0.7 ms (measured with an empty C program).
enum CodecLibraries {
    /// libheif (HEIC and HEIF), opened once per process.
    static let heif = Result { () throws(ImageCodingError) -> wik_heif_functions in
        let library = try DynamicLibrary(["libheif.so.1", "libheif.so"], package: "libheif1", for: .heic)
        return try table(library) { missing in wik_heif_functions_load(library.handle, &missing) }
    }

    /// libjxl and its thread pool library, opened once per process.
    static let jxl = Result { () throws(ImageCodingError) -> wik_jxl_functions in
        let library = try DynamicLibrary(["libjxl.so.0.7", "libjxl.so"], package: "libjxl0.7", for: .jpegXL)
        let threads = try DynamicLibrary(["libjxl_threads.so.0.7", "libjxl_threads.so"], package: "libjxl0.7", for: .jpegXL)
        return try table(library) { missing in wik_jxl_functions_load(library.handle, threads.handle, &missing) }
    }

    /// libavif, opened once per process.
    static let avif = Result { () throws(ImageCodingError) -> wik_avif_functions in
        let library = try DynamicLibrary(["libavif.so.15", "libavif.so"], package: "libavif15", for: .avif)
        return try table(library) { missing in wik_avif_functions_load(library.handle, &missing) }
    }

    /// libtiff, opened once per process.
    static let tiff = Result { () throws(ImageCodingError) -> wik_tiff_functions in
        let library = try DynamicLibrary(["libtiff.so.6", "libtiff.so"], package: "libtiff6", for: .tiff)
        return try table(library) { missing in wik_tiff_functions_load(library.handle, &missing) }
    }

    /// The table `load` fills from `library`, or the typed error naming the function it lacks.
    static func table<Table>(
        _ library: DynamicLibrary, _ load: (inout UnsafePointer<CChar>?) -> UnsafePointer<Table>?
    ) throws(ImageCodingError) -> Table {
        var missing: UnsafePointer<CChar>?
        guard let table = load(&missing) else {
            let name = missing.map { String(cString: $0) } ?? "a function"
            throw ImageCodingError(.unsupportedFormat, format: library.format, "\(library.name) has no function \(name)")
        }
        return table.pointee
    }
}
