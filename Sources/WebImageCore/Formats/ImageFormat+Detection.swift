public import Foundation

extension ImageFormat {
    /// Detects the format from the first bytes of `data`.
    ///
    /// Reads at most a few kilobytes, never the whole buffer; short, empty or unrecognised data is `.unknown`.
    public init(detecting data: Data) {
        self = data.withUnsafeBytes { ImageFormat(detecting: $0) }
    }

    /// Detects the format from the first bytes of a raw buffer.
    public init(detecting bytes: UnsafeRawBufferPointer) {
        self = FormatSniffer(bytes: bytes).format
    }
}

/// Matches leading bytes against each format's signature.
private struct FormatSniffer {
    let bytes: UnsafeRawBufferPointer

    var format: ImageFormat {
        guard bytes.count >= 2 else { return .unknown }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        if starts(with: Array("RIFF".utf8)) && matches(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(with: [0x49, 0x49, 0x2B, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2B]) { return .tiff } // BigTIFF
        if let isoFormat = isoBaseMediaFormat { return isoFormat }
        if starts(with: [0xFF, 0x0A]) { return .jpegXL } // bare codestream
        if starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jpegXL }
        if starts(with: Array("%PDF-".utf8)) { return .pdf }
        if isBMP { return .bmp }
        if isICO { return .ico }
        if isSVG { return .svg }
        return .unknown
    }

    private func starts(with signature: [UInt8]) -> Bool { matches(signature, at: 0) }

    private func matches(_ signature: [UInt8], at offset: Int) -> Bool {
        guard bytes.count >= offset + signature.count else { return false }
        for (index, byte) in signature.enumerated() where bytes[offset + index] != byte { return false }
        return true
    }

    private func bigEndianUInt32(at offset: Int) -> UInt32? {
        guard bytes.count >= offset + 4 else { return nil }
        return (offset..<offset + 4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[$1]) }
    }

    /// HEIC, HEIF and AVIF share the ISO base media `ftyp` box: decide by the major brand, then the compatible brands.
    private var isoBaseMediaFormat: ImageFormat? {
        guard bytes.count >= 12, matches(Array("ftyp".utf8), at: 4), let boxSize = bigEndianUInt32(at: 0), boxSize >= 16 else { return nil }
        let end = min(Int(boxSize), bytes.count, 4096)
        var brands = [String]()
        brands.append(brand(at: 8))
        var offset = 16 // skip major brand and minor version
        while offset + 4 <= end {
            brands.append(brand(at: offset))
            offset += 4
        }
        for candidate in brands { // the major brand decides when it is specific
            if let format = Self.specificBrands[candidate] { return format }
        }
        if brands.contains(where: Self.genericHEIFBrands.contains) { return .heif }
        return nil
    }

    private func brand(at offset: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4]), as: UTF8.self)
    }

    private static let specificBrands: [String: ImageFormat] = [
        "avif": .avif, "avis": .avif,
        "heic": .heic, "heix": .heic, "hevc": .heic, "hevx": .heic,
        "heim": .heic, "heis": .heic, "hevm": .heic, "hevs": .heic,
    ]
    private static let genericHEIFBrands: Set<String> = ["mif1", "msf1", "mif2"]

    /// "BM", then a header size field that one of the known BMP info headers uses.
    private var isBMP: Bool {
        guard starts(with: [0x42, 0x4D]), bytes.count >= 18 else { return false }
        let headerSize = UInt32(bytes[14]) | UInt32(bytes[15]) << 8 | UInt32(bytes[16]) << 16 | UInt32(bytes[17]) << 24
        return [12, 16, 40, 52, 56, 64, 108, 124].contains(headerSize)
    }

    /// Reserved 0, type 1 (icon) or 2 (cursor), at least one image.
    private var isICO: Bool {
        guard bytes.count >= 6, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1 || bytes[2] == 2, bytes[3] == 0 else {
            return false
        }
        return bytes[4] != 0 || bytes[5] != 0
    }

    /// Text that opens with `<` (after a BOM and white space) and has an `<svg` element in its first 4 KB.
    private var isSVG: Bool {
        let window = UnsafeRawBufferPointer(rebasing: bytes[0..<min(bytes.count, 4096)])
        var start = 0
        if window.count >= 3, window[0] == 0xEF, window[1] == 0xBB, window[2] == 0xBF { start = 3 }
        while start < window.count, [0x20, 0x09, 0x0A, 0x0D].contains(window[start]) { start += 1 }
        guard start < window.count, window[start] == UInt8(ascii: "<") else { return false }
        let needle = Array("<svg".utf8)
        guard window.count - start >= needle.count else { return false }
        for index in start...(window.count - needle.count) {
            var found = true
            for (offset, byte) in needle.enumerated() where window[index + offset] | 0x20 != byte {
                found = false
                break
            }
            if found { return true }
        }
        return false
    }
}
