import Foundation
import WebImageKit

extension ImageDetails {
    /// A classic TIFF's first IFD: BitsPerSample, the ICC profile tag (34675) for its name, and the
    /// camera tags (a TIFF is its own EXIF container). BigTIFF gives only what `ExifSummary` reads.
    mutating func readTIFF(_ reader: ByteReader) {
        let little = reader.matches("II", at: 0)
        guard little || reader.matches("MM", at: 0) else { return }
        func integer(_ offset: Int, _ width: Int) -> Int? {
            little ? reader.littleEndian(offset, width) : reader.bigEndian(offset, width)
        }
        exif = ExifSummary(tiff: reader.bytes)
        guard integer(2, 2) == 42, let ifd = integer(4, 4), let count = integer(ifd, 2), count < 4096 else { return }
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            guard let tag = integer(entry, 2), let type = integer(entry + 2, 2), let valueCount = integer(entry + 4, 4) else { return }
            switch tag {
            case 258: // BitsPerSample: SHORT, inline when one or two values, else at an offset
                if valueCount <= 2 {
                    bitDepth = integer(entry + 8, 2)
                } else if let offset = integer(entry + 8, 4) {
                    bitDepth = integer(offset, 2)
                }
            case 34675 where type == 7 || type == 1: // ICC profile: UNDEFINED (or BYTE) bytes at an offset
                if let offset = integer(entry + 8, 4), let profile = reader.slice(offset, valueCount) {
                    colourProfile = Self.name(ofProfile: profile)
                }
            default: break
            }
        }
    }

    /// A BMP's bit depth (bits per pixel, from the bitmap header) and a V5 header's embedded profile.
    mutating func readBMP(_ reader: ByteReader) {
        guard let headerSize = reader.littleEndian(14, 4) else { return }
        bitDepth = headerSize == 12 ? reader.littleEndian(24, 2) : reader.littleEndian(28, 2)
        if headerSize == 124, reader.matches("DEBM", at: 14 + 56), let offset = reader.littleEndian(14 + 112, 4),
           let length = reader.littleEndian(14 + 116, 4), let profile = reader.slice(14 + offset, length) {
            colourProfile = Self.name(ofProfile: profile)
        }
    }
}
