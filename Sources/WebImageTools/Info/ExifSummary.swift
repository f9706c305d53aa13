import Foundation

/// The camera and date of an EXIF block (a TIFF structure: `II`/`MM`, then IFDs): IFD0's Make, Model and
/// DateTime, and the Exif IFD's DateTimeOriginal, which wins over DateTime.
struct ExifSummary: Equatable {
    /// Make and model, e.g. `Canon EOS 5D`; the model alone when it already names the make.
    var camera: String?
    /// When the picture was taken, as EXIF writes it: `2024:05:01 14:03:22`.
    var taken: String?

    /// Reads `tiff`; `nil` when it is not a TIFF structure or names neither camera nor date.
    init?(tiff: [UInt8]) {
        let reader = ByteReader(tiff)
        let little: Bool
        if reader.matches("II", at: 0) { little = true } else if reader.matches("MM", at: 0) { little = false } else { return nil }
        let read = { (offset: Int, width: Int) in little ? reader.littleEndian(offset, width) : reader.bigEndian(offset, width) }
        guard read(2, 2) == 42, let first = read(4, 4) else { return nil }
        var strings: [Int: String] = [:]
        var exifIFD: Int?
        for ifd in [first, nil] {
            guard let start = ifd ?? exifIFD, let count = read(start, 2), count < 1000 else { continue }
            for index in 0..<count {
                let entry = start + 2 + index * 12
                guard let tag = read(entry, 2), let type = read(entry + 2, 2), let length = read(entry + 4, 4) else { break }
                if tag == 0x8769 { exifIFD = read(entry + 8, 4) }
                guard type == 2, [0x010F, 0x0110, 0x0132, 0x9003].contains(tag), length > 0, length < 256 else { continue }
                let at = length <= 4 ? entry + 8 : read(entry + 8, 4) ?? -1
                guard let bytes = reader.slice(at, length) else { continue }
                let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                if !text.isEmpty { strings[tag] = text }
            }
        }
        let make = strings[0x010F], model = strings[0x0110]
        if let make, let model {
            camera = model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first.map(String.init) ?? make.lowercased())
                ? model : "\(make) \(model)"
        } else {
            camera = model ?? make
        }
        taken = strings[0x9003] ?? strings[0x0132]
        if camera == nil, taken == nil { return nil }
    }
}
