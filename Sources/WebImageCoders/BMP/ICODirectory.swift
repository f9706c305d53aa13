import Foundation
import WebImageCore

/// The directory of an ICO or CUR file: one entry per stored image, with the size and bit depth it
/// declares and where its data lies. Each entry's data is a PNG file or a headerless bitmap (DIB).
struct ICODirectory {
    struct Entry {
        /// The size the directory declares (0 in the file means 256).
        var size: PixelSize
        /// The declared bits per pixel (0 when the writer left it out: taken as 32).
        var bitsPerPixel: Int
        var data: Range<Int>
    }

    var entries: [Entry]

    /// Reads the 6-byte header and the 16-byte entries; every entry's data must lie inside `bytes`, or with
    /// `allowingCutEntries` (a lenient decode of a cut file) at least start there: it is then cut to the data.
    init(_ bytes: UnsafeRawBufferPointer, allowingCutEntries: Bool = false) throws(ImageCodingError) {
        guard bytes.count >= 6 else { throw ImageCodingError(.truncatedData, format: .ico, "the data ends inside the icon header") }
        guard bytes[0] == 0, bytes[1] == 0, bytes[2] == 1 || bytes[2] == 2, bytes[3] == 0 else {
            throw ImageCodingError(.unsupportedFormat, format: .ico, "not an ICO or CUR header")
        }
        let count = Int(bytes[4]) | Int(bytes[5]) << 8
        guard count > 0 else { throw ImageCodingError(.corruptData, format: .ico, "the icon holds no image") }
        guard bytes.count - 6 >= count * 16 else {
            throw ImageCodingError(.truncatedData, format: .ico, "the data ends inside the icon directory")
        }
        let isCursor = bytes[2] == 2
        entries = []
        for index in 0..<count {
            let entry = 6 + index * 16
            func u32(_ offset: Int) -> Int {
                Int(bytes[entry + offset]) | Int(bytes[entry + offset + 1]) << 8
                    | Int(bytes[entry + offset + 2]) << 16 | Int(bytes[entry + offset + 3]) << 24
            }
            let width = bytes[entry] == 0 ? 256 : Int(bytes[entry])
            let height = bytes[entry + 1] == 0 ? 256 : Int(bytes[entry + 1])
            // In a cursor these two fields are the hot spot, not planes and bit count.
            let bits = isCursor ? 0 : Int(bytes[entry + 6]) | Int(bytes[entry + 7]) << 8
            let length = u32(8), offset = u32(12)
            guard length > 0, offset >= 6 else { continue } // an empty or impossible entry is skipped
            let isWhole = offset <= bytes.count && length <= bytes.count - offset
            guard isWhole || (allowingCutEntries && offset < bytes.count) else {
                throw ImageCodingError(.truncatedData, format: .ico, "the data ends inside icon image \(index + 1) of \(count)")
            }
            entries.append(Entry(size: PixelSize(width: width, height: height), bitsPerPixel: bits == 0 ? 32 : bits,
                                 data: offset..<(isWhole ? offset + length : bytes.count)))
        }
        guard !entries.isEmpty else {
            throw ImageCodingError(.corruptData, format: .ico, "the icon directory lists no usable image")
        }
    }

    /// The entry to show: with a target size, the smallest that covers it (the largest when none does);
    /// otherwise the largest; ties go to the higher bit depth, then to the first.
    func best(covering target: PixelSize?) -> Entry {
        let ranked = entries.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.size.pixelCount != y.size.pixelCount { return x.size.pixelCount > y.size.pixelCount }
            if x.bitsPerPixel != y.bitsPerPixel { return x.bitsPerPixel > y.bitsPerPixel }
            return a.offset < b.offset
        }.map(\.element)
        if let target, let covering = ranked.last(where: { $0.size.width >= target.width && $0.size.height >= target.height }) {
            // The smallest covering size, at its best bit depth.
            return ranked.first { $0.size == covering.size } ?? covering
        }
        return ranked[0]
    }
}
