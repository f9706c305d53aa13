import CTIFF
import Foundation
import WebImageCore

extension LibTIFF {
    /// Encodes one frame as a single-page TIFF in memory: 8-bit RGB, JPEG-compressed (YCbCr) at `quality`
    /// when the pixels are opaque and `lossless` is false, else Deflate-compressed RGB or RGBA (unassociated
    /// alpha). `orientation` becomes the Orientation tag; `profile` and `xmp` the ICC profile and XMP tags.
    static func encode(
        _ pixels: PixelBuffer, orientation: ImageOrientation, quality: Int, lossless: Bool, profile: Data?, xmp: Data?
    ) throws(ImageCodingError) -> Data {
        let lib = try CodecLibraries.tiff.get()
        let output = TIFFOutputFile()
        guard let options = lib.TIFFOpenOptionsAlloc() else { throw ImageCodingError(.encodingFailed, format: .tiff, "libtiff failed") }
        defer { lib.TIFFOpenOptionsFree(options) }
        let context = Unmanaged.passUnretained(output).toOpaque()
        lib.TIFFOpenOptionsSetErrorHandlerExtR(options, recordEncodingError, context)
        lib.TIFFOpenOptionsSetWarningHandlerExtR(options, ignoreEncodingWarning, context)
        let opened = withExtendedLifetime(output) {
            lib.TIFFClientOpenExt("memory", "wm", context, outputRead, outputWrite, outputSeek, outputClose, outputSize,
                              outputMap, outputUnmap, options)
        }
        guard let pointer = opened else { throw failure(output, "libtiff could not start a file") }
        let tiff = OpenTIFF(pointer: pointer, lib: lib)
        let written = withExtendedLifetime(output) { writePage(tiff, pixels, orientation, quality, lossless, profile, xmp) }
        lib.TIFFClose(pointer) // writes the directory
        guard written, output.errors.isEmpty else { throw failure(output, "libtiff could not write the image") }
        return Data(output.bytes)
    }

    /// Sets the tags and writes the rows; false when libtiff refused either.
    private static func writePage(
        _ tiff: OpenTIFF, _ pixels: PixelBuffer, _ orientation: ImageOrientation, _ quality: Int, _ lossless: Bool,
        _ profile: Data?, _ xmp: Data?
    ) -> Bool {
        let hasAlpha = pixels.hasAlpha && !pixels.isOpaque
        let usesJPEG = !hasAlpha && !lossless
        let channels = hasAlpha ? 4 : 3
        var ok = set(tiff, TIFFTAG_IMAGEWIDTH, UInt32(pixels.width)) && set(tiff, TIFFTAG_IMAGELENGTH, UInt32(pixels.height))
            && set(tiff, TIFFTAG_BITSPERSAMPLE, Int32(8)) && set(tiff, TIFFTAG_SAMPLESPERPIXEL, Int32(channels))
            && set(tiff, TIFFTAG_PLANARCONFIG, Int32(PLANARCONFIG_CONTIG))
            && set(tiff, TIFFTAG_ORIENTATION, Int32(orientation.exifValue))
            && set(tiff, TIFFTAG_ROWSPERSTRIP, UInt32(64)) // a multiple of 16, as JPEG's YCbCr 4:2:0 needs
        if hasAlpha {
            var extra: UInt16 = UInt16(EXTRASAMPLE_UNASSALPHA)
            ok = ok && withUnsafeMutablePointer(to: &extra) { set(tiff, TIFFTAG_EXTRASAMPLES, Int32(1), $0) }
        }
        if usesJPEG {
            ok = ok && set(tiff, TIFFTAG_COMPRESSION, Int32(COMPRESSION_JPEG))
                && set(tiff, TIFFTAG_PHOTOMETRIC, Int32(PHOTOMETRIC_YCBCR))
                && set(tiff, TIFFTAG_JPEGQUALITY, Int32(min(max(quality, 1), 100)))
                && set(tiff, TIFFTAG_JPEGCOLORMODE, Int32(JPEGCOLORMODE_RGB)) // libtiff converts the RGB rows
        } else {
            ok = ok && set(tiff, TIFFTAG_COMPRESSION, Int32(COMPRESSION_ADOBE_DEFLATE))
                && set(tiff, TIFFTAG_PHOTOMETRIC, Int32(PHOTOMETRIC_RGB))
                && set(tiff, TIFFTAG_PREDICTOR, Int32(PREDICTOR_HORIZONTAL))
        }
        for (tag, block) in [(TIFFTAG_ICCPROFILE, profile), (TIFFTAG_XMLPACKET, xmp)] {
            guard let block, ok else { continue }
            ok = block.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return true } // an empty block is not written
                return set(tiff, tag, UInt32(bytes.count), UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: UInt8.self))
            }
        }
        guard ok else { return false }
        var row = [UInt8](repeating: 0, count: pixels.width * channels)
        return pixels.withUnsafeBytes { source in
            for y in 0..<pixels.height {
                let start = y * pixels.bytesPerRow
                for x in 0..<pixels.width {
                    for c in 0..<channels { row[x * channels + c] = source[start + 4 * x + c] }
                }
                let status = row.withUnsafeMutableBytes { tiff.lib.TIFFWriteScanline(tiff.pointer, $0.baseAddress, UInt32(y), 0) }
                guard status == 1 else { return false }
            }
            return true
        }
    }

    /// `TIFFSetField` through its `va_list` form (Swift cannot call C variadic functions).
    private static func set(_ tiff: OpenTIFF, _ tag: Int32, _ arguments: any CVarArg...) -> Bool {
        withVaList(arguments) { tiff.lib.TIFFVSetField(tiff.pointer, UInt32(tag), $0) } == 1
    }

    private static func failure(_ output: TIFFOutputFile, _ fallback: String) -> ImageCodingError {
        ImageCodingError(.encodingFailed, format: .tiff, output.errors.first ?? fallback)
    }
}

/// A growing in-memory file that libtiff writes a TIFF into (it seeks back to patch offsets and may read
/// what it wrote), capped at 2 GiB.
final class TIFFOutputFile {
    var bytes: [UInt8] = []
    var position = 0
    var errors: [String] = []
    static let capacity = Int(Int32.max)

    func write(_ buffer: UnsafeRawPointer?, count: Int) -> Int {
        guard let buffer, count >= 0, position <= Self.capacity - count else { return -1 }
        guard count > 0 else { return 0 }
        let end = position + count
        if end > bytes.count { bytes.append(contentsOf: repeatElement(0, count: end - bytes.count)) }
        bytes.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: position).copyMemory(from: buffer, byteCount: count) }
        position = end
        return count
    }

    func read(into buffer: UnsafeMutableRawPointer?, count: Int) -> Int {
        guard let buffer, count > 0, position < bytes.count else { return 0 }
        let n = min(count, bytes.count - position)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!.advanced(by: position), byteCount: n) }
        position += n
        return n
    }

    func seek(to offset: UInt64, whence: Int32) -> UInt64 {
        let base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? position : whence == SEEK_END ? bytes.count : -1
        guard base >= 0 else { return UInt64.max }
        let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: offset))
        guard !overflow, target >= 0, target <= Self.capacity else { return UInt64.max }
        position = target
        return UInt64(target)
    }
}

private func outputFile(_ handle: thandle_t?) -> TIFFOutputFile? {
    handle.map { Unmanaged<TIFFOutputFile>.fromOpaque($0).takeUnretainedValue() }
}

private func recordEncodingError(
    _ tiff: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ module: UnsafePointer<CChar>?,
    _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) -> Int32 {
    guard let file = outputFile(context), let format else { return 1 }
    if file.errors.count < 16 { file.errors.append("libtiff: " + String(cString: format)) }
    return 1
}

private func ignoreEncodingWarning(
    _ tiff: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ module: UnsafePointer<CChar>?,
    _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) -> Int32 { 1 }

private func outputRead(_ handle: thandle_t?, _ buffer: UnsafeMutableRawPointer?, _ size: tmsize_t) -> tmsize_t {
    guard let file = outputFile(handle), size >= 0 else { return -1 }
    return tmsize_t(file.read(into: buffer, count: Int(size)))
}

private func outputWrite(_ handle: thandle_t?, _ buffer: UnsafeMutableRawPointer?, _ size: tmsize_t) -> tmsize_t {
    guard let file = outputFile(handle), size >= 0 else { return -1 }
    return tmsize_t(file.write(buffer, count: Int(size)))
}

private func outputSeek(_ handle: thandle_t?, _ offset: toff_t, _ whence: Int32) -> toff_t {
    outputFile(handle)?.seek(to: offset, whence: whence) ?? UInt64.max
}

private func outputClose(_ handle: thandle_t?) -> Int32 { 0 }

private func outputSize(_ handle: thandle_t?) -> toff_t {
    UInt64(outputFile(handle)?.bytes.count ?? 0)
}

private func outputMap(_ handle: thandle_t?, _ base: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ size: UnsafeMutablePointer<toff_t>?) -> Int32 { 0 }

private func outputUnmap(_ handle: thandle_t?, _ base: UnsafeMutableRawPointer?, _ size: toff_t) {}
