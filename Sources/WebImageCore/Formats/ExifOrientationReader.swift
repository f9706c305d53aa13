public import Foundation

/// Finds the EXIF orientation tag (0x0112) in JPEG files and raw TIFF/EXIF blocks.
///
/// Pure Swift with bounds checks on every read: hostile metadata gives `nil`, never a crash.
public enum ExifOrientationReader {
    /// The orientation declared in a JPEG's APP1 `Exif` segment, or `nil` when there is none.
    public static func orientation(inJPEG data: Data) -> ImageOrientation? {
        data.withUnsafeBytes { orientation(inJPEG: $0) }
    }

    /// The orientation declared in a JPEG's APP1 `Exif` segment, or `nil` when there is none.
    public static func orientation(inJPEG bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue } // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil } // start of scan / end: metadata is over
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let segment = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 2 + length)])
            if marker == 0xE1, segment.starts(with: exifHeader) {
                return orientation(inTIFF: UnsafeRawBufferPointer(rebasing: segment[exifHeader.count...]))
            }
            offset += 2 + length
        }
        return nil
    }

    /// The orientation in a TIFF-structured block (what follows `Exif\0\0`, or a WebP/AVIF/PNG EXIF chunk).
    public static func orientation(inTIFF data: Data) -> ImageOrientation? {
        data.withUnsafeBytes { orientation(inTIFF: $0) }
    }

    /// The orientation in a TIFF-structured block.
    public static func orientation(inTIFF bytes: UnsafeRawBufferPointer) -> ImageOrientation? {
        var tiff = bytes
        // Some writers keep the "Exif\0\0" prefix inside WebP/PNG chunks.
        if tiff.starts(with: exifHeader) { tiff = UnsafeRawBufferPointer(rebasing: tiff[exifHeader.count...]) }
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        let reader = EndianReader(bytes: tiff, bigEndian: bigEndian)
        guard reader.uint16(at: 2) == 42, let ifdOffset = reader.uint32(at: 4).map(Int.init),
              let entryCount = reader.uint16(at: ifdOffset).map(Int.init) else { return nil }
        for index in 0..<entryCount {
            let entry = ifdOffset + 2 + index * 12
            guard let tag = reader.uint16(at: entry) else { return nil }
            guard tag == 0x0112 else { continue }
            guard reader.uint16(at: entry + 2) == 3, let value = reader.uint16(at: entry + 8) else { return nil } // SHORT
            return ImageOrientation(rawValue: Int(value))
        }
        return nil
    }

    private static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
}

private struct EndianReader {
    let bytes: UnsafeRawBufferPointer
    let bigEndian: Bool

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let (a, b) = (UInt16(bytes[offset]), UInt16(bytes[offset + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(at offset: Int) -> UInt32? {
        guard let high = uint16(at: bigEndian ? offset : offset + 2),
              let low = uint16(at: bigEndian ? offset + 2 : offset) else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }
}
