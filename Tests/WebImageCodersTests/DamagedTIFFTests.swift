import Foundation
import Testing
@testable import WebImageCoders

/// Issue 31 for TIFF (which browsers do not show: the rule is "decode what libtiff can"): strips that do not
/// decode, broken or pointing past the end of the data, are transparent and the other strips' rows are kept,
/// with an issue naming the first damaged row; `strict: true` refuses. The fixtures are our own lossless
/// encodes (four strips of 64 rows), damaged here.
@Suite struct DamagedTIFFTests {
    typealias Fixtures = DamagedImageTests

    /// A clean little-endian TIFF of 64×256 noise, deflate-compressed in four strips, its decode, and where each
    /// strip's offset entry and data lie.
    static func cleanTIFF() throws -> (data: Data, pixels: PixelBuffer, strips: [(offsetField: Int, start: Int, length: Int)]) {
        let data = try TIFFCoder().encode(Image(pixels: Fixtures.noise(width: 64, height: 256)), as: .tiff,
                                          options: ImageEncodingOptions(lossless: true))
        let bytes = [UInt8](data)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        try #require(bytes[0] == 0x49)
        let directory = u32(4)
        var offsets: (count: Int, at: Int)?, lengths: (count: Int, at: Int)?
        for entry in 0..<u16(directory) {
            let at = directory + 2 + entry * 12
            let count = u32(at + 4)
            let values = count == 1 ? at + 8 : u32(at + 8) // LONG values: inline when there is one
            if u16(at) == 273 { offsets = (count, values) }
            if u16(at) == 279 { lengths = (count, values) }
        }
        let (offsetList, lengthList) = (try #require(offsets), try #require(lengths))
        try #require(offsetList.count == 4 && lengthList.count == 4)
        let strips = (0..<4).map { (offsetList.at + 4 * $0, u32(offsetList.at + 4 * $0), u32(lengthList.at + 4 * $0)) }
        return (data, try TIFFCoder().decode(data, options: Fixtures.strict).pixels, strips)
    }

    static let rowBytes = 64 * 4

    /// The bytes of rows `rows` of `pixels`.
    static func rows(_ pixels: PixelBuffer, _ rows: Range<Int>) -> ArraySlice<UInt8> {
        pixels.bytes[(rows.lowerBound * rowBytes)..<(rows.upperBound * rowBytes)]
    }

    @Test func tiffWithABrokenStripKeepsTheOtherStripsRowsAndMakesItsOwnTransparent() throws {
        let (clean, reference, strips) = try Self.cleanTIFF()
        var bytes = [UInt8](clean)
        let third = strips[2]
        for index in third.start..<(third.start + third.length) { bytes[index] = 0xFF } // not a zlib stream
        let damaged = Data(bytes)
        let image = try TIFFCoder().decode(damaged, options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 256))
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .corruptData && issue.firstDamagedRow == 128, "\(issue)")
        #expect(Self.rows(image.pixels, 0..<128) == Self.rows(reference, 0..<128))
        #expect(Self.rows(image.pixels, 128..<192).allSatisfy { $0 == 0 }, "the broken strip is transparent")
        #expect(Self.rows(image.pixels, 192..<256) == Self.rows(reference, 192..<256), "the strip after it is kept")
        #expect(image.hasAlpha)
        #expect(Fixtures.codingError { try TIFFCoder().decode(damaged, options: Fixtures.strict) } != nil)
    }

    @Test func tiffWhoseLastStripLiesPastTheEndOfTheDataKeepsTheRowsBeforeIt() throws {
        let (clean, reference, strips) = try Self.cleanTIFF()
        var bytes = [UInt8](clean)
        let pastTheEnd = clean.count + 4096
        for index in 0..<4 { bytes[strips[3].offsetField + index] = UInt8(truncatingIfNeeded: pastTheEnd >> (8 * index)) }
        let damaged = Data(bytes)
        let image = try TIFFCoder().decode(damaged, options: Fixtures.lenient)
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .truncated && issue.firstDamagedRow == 192, "\(issue)")
        #expect(Self.rows(image.pixels, 0..<192) == Self.rows(reference, 0..<192))
        #expect(Self.rows(image.pixels, 192..<256).allSatisfy { $0 == 0 })
        #expect(Fixtures.codingError { try TIFFCoder().decode(damaged, options: Fixtures.strict) }?.code == .truncatedData)
    }

    @Test func tiffWithNoDecodableStripOrACutDirectoryIsStillRefused() throws {
        let (clean, _, strips) = try Self.cleanTIFF()
        var bytes = [UInt8](clean)
        for strip in strips {
            for index in strip.start..<(strip.start + strip.length) { bytes[index] = 0xFF }
        }
        #expect(Fixtures.codingError { try TIFFCoder().decode(Data(bytes), options: Fixtures.lenient) } != nil)
        // libtiff writes the directory after the strips: a file cut short loses it.
        #expect(Fixtures.codingError { try TIFFCoder().decode(clean.prefix(clean.count - 30), options: Fixtures.lenient) } != nil)
    }
}
