import Foundation
import WebImageCore

extension JPEGCoder {
    /// A CMYK or YCCK file with an ICC profile, decoded to its raw inks and converted through the
    /// profile; `nil` when the file is not CMYK or the profile is not a usable CMYK profile (the
    /// caller then decodes with the naive conversion).
    static func decodeCMYK(
        _ bytes: UnsafeRawBufferPointer, info: Info, profile: Data, scale: DCTScale, options: ImageDecodingOptions
    ) throws(ImageCodingError) -> (pixels: PixelBuffer, issue: DecodingIssue?)? {
        guard info.colorSpace == .cmyk || info.colorSpace == .ycck, !options.keepsColorProfile,
              LittleCMS.space(of: profile) == .cmyk else { return nil }
        let size = info.outputSize
        // The same byte count as the RGBA result, whose size was checked against the pixel limit.
        let inks = UnsafeMutableRawBufferPointer.allocate(byteCount: size.width * size.height * 4, alignment: 16)
        defer { inks.deallocate() }
        let issue = try LibJPEG.decodeCMYK(
            bytes, scale: scale, into: inks, size: size, maximumWorkingMemory: workingMemoryLimit(options: options),
            strict: options.strict
        )
        // Inks are read as stored inverted, as for the naive conversion (see wik_jpeg_cmyk_to_rgba).
        let pixels = ColorManagement.rgba(
            fromCMYK: UnsafeRawBufferPointer(inks), width: size.width, height: size.height, profile: profile, inverted: true
        )
        return pixels.map { ($0, issue) }
    }
}
