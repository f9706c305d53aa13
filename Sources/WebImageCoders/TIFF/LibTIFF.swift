import CTIFF
import Foundation
import WebImageCore

/// The only code that calls libtiff: opens a TIFF held in memory (`TIFFClientOpenExt` with callbacks,
/// no file access), walks its pages and reads each as RGBA through `TIFFRGBAImage`, which handles
/// strips and tiles, 1–16-bit samples, palette, grey, RGB, YCbCr, CMYK, separate planes and alpha.
/// libtiff's errors and warnings go to per-file handlers that record them; nothing is printed.
enum LibTIFF {
    /// One page as stored: the RGBA pixels in file order (orientation not applied), and what goes with them.
    struct Page {
        var pixels: PixelBuffer
        var orientation: ImageOrientation
        var iccProfile: Data?
        var isGray: Bool
        /// The CMYK inks were converted through `iccProfile` already.
        var profileApplied: Bool
    }

    /// What a page's tags say, before any pixel is read.
    struct PageHeader {
        var size: PixelSize
        var bitsPerSample: Int
        var samplesPerPixel: Int
        var photometric: Int
        var isReducedResolution: Bool
        var iccProfile: Data?
    }

    /// An open file and the library's functions (libtiff is opened on first use: ``CodecLibraries/tiff``).
    struct OpenTIFF {
        let pointer: OpaquePointer
        let lib: wik_tiff_functions
    }

    /// Opens `bytes`, calls `body` with the open file, and closes it; throws when libtiff is not installed.
    static func withFile<R>(
        _ bytes: UnsafeRawBufferPointer, maximumAllocation: Int, _ body: (OpenTIFF, TIFFMemoryFile) throws(ImageCodingError) -> R
    ) throws(ImageCodingError) -> R {
        let file = TIFFMemoryFile(bytes)
        guard bytes.count >= 8 else { throw ImageCodingError(.truncatedData, format: .tiff, "the data ends inside the TIFF header") }
        let lib = try CodecLibraries.tiff.get()
        guard let options = lib.TIFFOpenOptionsAlloc() else { throw ImageCodingError(.corruptData, format: .tiff, "libtiff failed") }
        defer { lib.TIFFOpenOptionsFree(options) }
        let context = Unmanaged.passUnretained(file).toOpaque()
        lib.TIFFOpenOptionsSetErrorHandlerExtR(options, recordMessage, context)
        lib.TIFFOpenOptionsSetWarningHandlerExtR(options, recordWarning, context)
        lib.TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(clamping: maximumAllocation))
        // "m": no memory mapping, every read goes through readProc with bounds checks.
        let opened = withExtendedLifetime(file) {
            lib.TIFFClientOpenExt("memory", "rm", context, readProc, writeProc, seekProc, closeProc, sizeProc, mapProc, unmapProc, options)
        }
        guard let pointer = opened else { throw error(file, fallback: "not a readable TIFF") }
        let tiff = OpenTIFF(pointer: pointer, lib: lib)
        defer { lib.TIFFClose(pointer) }
        return try withExtendedLifetime(file) { () throws(ImageCodingError) -> R in try body(tiff, file) }
    }

    /// The current page's tags.
    static func header(_ tiff: OpenTIFF) throws(ImageCodingError) -> PageHeader {
        let width = Int(field(tiff, UInt32(TIFFTAG_IMAGEWIDTH), as: UInt32.self) ?? 0)
        let height = Int(field(tiff, UInt32(TIFFTAG_IMAGELENGTH), as: UInt32.self) ?? 0)
        let subfile = field(tiff, UInt32(TIFFTAG_SUBFILETYPE), as: UInt32.self) ?? 0
        return PageHeader(
            size: PixelSize(width: width, height: height),
            bitsPerSample: Int(defaultedField(tiff, UInt32(TIFFTAG_BITSPERSAMPLE), as: UInt16.self) ?? 1),
            samplesPerPixel: Int(defaultedField(tiff, UInt32(TIFFTAG_SAMPLESPERPIXEL), as: UInt16.self) ?? 1),
            photometric: Int(field(tiff, UInt32(TIFFTAG_PHOTOMETRIC), as: UInt16.self) ?? UInt16.max),
            isReducedResolution: subfile & UInt32(FILETYPE_REDUCEDIMAGE) != 0,
            iccProfile: iccProfile(tiff)
        )
    }

    /// The page's orientation tag (the same values as EXIF), `.up` when absent or invalid.
    static func orientation(_ tiff: OpenTIFF) -> ImageOrientation {
        let value = field(tiff, UInt32(TIFFTAG_ORIENTATION), as: UInt16.self).map(Int.init) ?? 1
        return ImageOrientation(exifValue: value)
    }

    /// The ICC profile tag of the current page.
    static func iccProfile(_ tiff: OpenTIFF) -> Data? {
        var count: UInt32 = 0
        var pointer: UnsafeMutableRawPointer?
        let found = withUnsafeMutablePointer(to: &count) { countPointer in
            withUnsafeMutablePointer(to: &pointer) { dataPointer in
                withVaList([countPointer, dataPointer]) { tiff.lib.TIFFVGetField(tiff.pointer, UInt32(TIFFTAG_ICCPROFILE), $0) }
            }
        }
        guard found != 0, count > 0, let pointer else { return nil }
        return Data(bytes: pointer, count: Int(count))
    }

    /// Reads the current page as RGBA in stored order (rows and columns as in the file; the orientation
    /// tag is reported, not applied). Size checked by the caller. Without `stopsOnError`, libtiff carries on
    /// past strips or tiles it cannot decode (see ``readRGBALeniently(_:file:size:maximumAllocation:issues:)``).
    static func readRGBA(
        _ tiff: OpenTIFF, file: TIFFMemoryFile, size: PixelSize, stopsOnError: Bool = true
    ) throws(ImageCodingError) -> PixelBuffer {
        var message = [CChar](repeating: 0, count: 1024)
        var image = TIFFRGBAImage()
        let began = message.withUnsafeMutableBufferPointer { tiff.lib.TIFFRGBAImageBegin(&image, tiff.pointer, stopsOnError ? 1 : 0, $0.baseAddress) }
        guard began != 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageCodingError(.unsupportedFormat, format: .tiff, text.isEmpty ? "libtiff cannot read this layout" : text)
        }
        defer { tiff.lib.TIFFRGBAImageEnd(&image) }
        // Ask for the file's own orientation: libtiff then flips nothing.
        image.req_orientation = image.orientation
        let hasAlpha = image.alpha != 0
        let pixels = try PixelBuffer(width: size.width, height: size.height, hasAlpha: hasAlpha) { output throws(ImageCodingError) in
            guard let base = output.baseAddress else { return }
            let raster = UnsafeMutableRawPointer(base).bindMemory(to: UInt32.self, capacity: size.width * size.height)
            // libtiff leaves pixels it could not read untouched: start from transparent black.
            output.update(repeating: 0)
            guard tiff.lib.TIFFRGBAImageGet(&image, raster, UInt32(size.width), UInt32(size.height)) != 0 else {
                throw error(file, fallback: "libtiff could not read the pixels")
            }
            // TIFFRGBAImage packs A<<24 | B<<16 | G<<8 | R: R, G, B, A in memory on little-endian machines.
            #if _endian(big)
            for index in 0..<(size.width * size.height) { raster[index] = raster[index].byteSwapped }
            #endif
            // It premultiplies alpha (associated or not); PixelBuffer holds straight alpha.
            if hasAlpha { unpremultiply(output) }
        }
        return pixels
    }

    /// Reads 8-bit contiguous CMYK inks (no alpha) of a stripped page, 4 bytes a pixel, in stored order;
    /// `nil` when the page is laid out otherwise (the caller then uses the naive conversion).
    static func readCMYK(_ tiff: OpenTIFF, file: TIFFMemoryFile, header: PageHeader) throws(ImageCodingError) -> [UInt8]? {
        let planar = defaultedField(tiff, UInt32(TIFFTAG_PLANARCONFIG), as: UInt16.self) ?? UInt16(PLANARCONFIG_CONTIG)
        let inkSet = defaultedField(tiff, UInt32(TIFFTAG_INKSET), as: UInt16.self) ?? UInt16(INKSET_CMYK)
        guard header.photometric == Int(PHOTOMETRIC_SEPARATED), header.samplesPerPixel == 4, header.bitsPerSample == 8,
              planar == UInt16(PLANARCONFIG_CONTIG), inkSet == UInt16(INKSET_CMYK), tiff.lib.TIFFIsTiled(tiff.pointer) == 0,
              tiff.lib.TIFFScanlineSize64(tiff.pointer) == UInt64(header.size.width * 4) else { return nil }
        let width = header.size.width, height = header.size.height
        var inks = [UInt8](repeating: 0, count: width * height * 4)
        let failed = inks.withUnsafeMutableBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            for row in 0..<height where tiff.lib.TIFFReadScanline(tiff.pointer, base + row * width * 4, UInt32(row), 0) < 0 {
                return true
            }
            return false
        }
        if failed { throw error(file, fallback: "libtiff could not read the CMYK rows") }
        return inks
    }

    /// Moves to the next page; false after the last one.
    static func nextPage(_ tiff: OpenTIFF) -> Bool {
        tiff.lib.TIFFReadDirectory(tiff.pointer) != 0
    }

    /// Throws when libtiff reported an error or a read past the end along the way, even where it carried on
    /// (a cut directory link, a tag cut off): a file cut anywhere fails, as every other decoder's does.
    static func checkNoErrors(_ file: TIFFMemoryFile) throws(ImageCodingError) {
        guard file.errors.isEmpty, file.readWarnings.isEmpty else {
            throw error(file, fallback: file.readWarnings.first ?? "libtiff reported an error")
        }
    }

    /// The error for what libtiff reported: a short read means the data is cut.
    static func error(_ file: TIFFMemoryFile, fallback: String) -> ImageCodingError {
        let message = file.errors.last ?? fallback
        let truncated = (file.errors + file.readWarnings).contains { text in
            ["Read error", "EOF", "past end", "Cannot read", "Seek error", "short", "truncated", "Error fetching data",
             "IO error", "Can not read"]
                .contains { text.localizedCaseInsensitiveContains($0) }
        } || file.errors.isEmpty && file.position >= file.bytes.count
        return ImageCodingError(truncated ? .truncatedData : .corruptData, format: .tiff, message)
    }

    /// Turns premultiplied RGBA into straight RGBA in place.
    private static func unpremultiply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        var index = 0
        while index + 3 < pixels.count {
            let alpha = Int(pixels[index + 3])
            if alpha != 255 {
                if alpha == 0 {
                    pixels[index] = 0; pixels[index + 1] = 0; pixels[index + 2] = 0
                } else {
                    for channel in 0..<3 {
                        pixels[index + channel] = UInt8(min(255, (Int(pixels[index + channel]) * 255 + alpha / 2) / alpha))
                    }
                }
            }
            index += 4
        }
    }

    private static func field<T: FixedWidthInteger>(_ tiff: OpenTIFF, _ tag: UInt32, as type: T.Type) -> T? {
        var value: T = 0
        let found = withUnsafeMutablePointer(to: &value) { pointer in withVaList([pointer]) { tiff.lib.TIFFVGetField(tiff.pointer, tag, $0) } }
        return found != 0 ? value : nil
    }

    private static func defaultedField<T: FixedWidthInteger>(_ tiff: OpenTIFF, _ tag: UInt32, as type: T.Type) -> T? {
        var value: T = 0
        let found = withUnsafeMutablePointer(to: &value) { pointer in
            withVaList([pointer]) { tiff.lib.TIFFVGetFieldDefaulted(tiff.pointer, tag, $0) }
        }
        return found != 0 ? value : nil
    }
}

// MARK: - libtiff callbacks (functions, not closures held in variables: a variable of a C function-pointer type
// that mentions va_list crashes swift-symbolgraph-extract, and so the documentation build)

private func memoryFile(_ handle: thandle_t?) -> TIFFMemoryFile? {
    handle.map { Unmanaged<TIFFMemoryFile>.fromOpaque($0).takeUnretainedValue() }
}

/// The message libtiff formatted, at most 511 bytes.
private func formatted(_ format: UnsafePointer<CChar>, _ arguments: CVaListPointer) -> String {
    var buffer = [CChar](repeating: 0, count: 512)
    _ = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

private func recordMessage(
    _ tiff: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ module: UnsafePointer<CChar>?,
    _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) -> Int32 {
    guard let file = memoryFile(context), let format, let arguments else { return 1 }
    let text = formatted(format, arguments)
    if file.errors.count < 16 {
        file.errors.append(module.map { String(cString: $0) + ": " + text } ?? text)
    }
    return 1 // handled: libtiff does not call its global handler (which prints)
}

/// Warnings are dropped, except those saying data could not be read: those mean the file is cut.
private func recordWarning(
    _ tiff: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ module: UnsafePointer<CChar>?,
    _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) -> Int32 {
    guard let file = memoryFile(context), let format, let arguments else { return 1 }
    let text = formatted(format, arguments)
    if text.localizedCaseInsensitiveContains("IO error"), file.readWarnings.count < 16 { file.readWarnings.append(text) }
    return 1
}

private func readProc(_ handle: thandle_t?, _ buffer: UnsafeMutableRawPointer?, _ size: tmsize_t) -> tmsize_t {
    guard let file = memoryFile(handle), size >= 0 else { return -1 }
    return tmsize_t(file.read(into: buffer, count: Int(size)))
}

private func writeProc(_ handle: thandle_t?, _ buffer: UnsafeMutableRawPointer?, _ size: tmsize_t) -> tmsize_t { -1 }

private func seekProc(_ handle: thandle_t?, _ offset: toff_t, _ whence: Int32) -> toff_t {
    memoryFile(handle)?.seek(to: offset, whence: whence) ?? UInt64.max
}

private func closeProc(_ handle: thandle_t?) -> Int32 { 0 }

private func sizeProc(_ handle: thandle_t?) -> toff_t {
    UInt64(memoryFile(handle)?.bytes.count ?? 0)
}

private func mapProc(_ handle: thandle_t?, _ base: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ size: UnsafeMutablePointer<toff_t>?) -> Int32 { 0 }

private func unmapProc(_ handle: thandle_t?, _ base: UnsafeMutableRawPointer?, _ size: toff_t) {}
