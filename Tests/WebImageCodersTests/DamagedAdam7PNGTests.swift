import Foundation
import Testing
@testable import WebImageCoders

/// Issue 31 for interlaced (Adam7) PNG: a file cut or broken before its last pass shows, at full size, the passes
/// decoded before the damage (each pixel filling its block, as libpng's progressive reader draws it and Chromium
/// shows it); `strict: true` refuses it. The fixtures are our own clean interlaced encodes, damaged here.
@Suite struct DamagedAdam7PNGTests {
    typealias Fixtures = DamagedImageTests

    /// A clean Adam7 PNG of 64×128 opaque noise and its decode.
    static func cleanAdam7() throws -> (data: Data, pixels: PixelBuffer) {
        let data = try PNGCoder().encode(Image(pixels: Fixtures.noise(width: 64, height: 128)), as: .png,
                                         options: ImageEncodingOptions(progressive: true))
        return (data, try PNGCoder().decode(data, options: Fixtures.strict).pixels)
    }

    /// The bytes of row `row` of `pixels`.
    static func row(_ pixels: PixelBuffer, _ row: Int) -> ArraySlice<UInt8> {
        pixels.bytes[(row * pixels.bytesPerRow)..<((row + 1) * pixels.bytesPerRow)]
    }

    @Test func adam7CutInItsLastPassKeepsTheEvenRowsAndTheOddRowsBeforeTheCut() throws {
        let (clean, reference) = try Self.cleanAdam7()
        // The last pass (every odd row, whole) is the second half of the image data: cut at 3/4 of it.
        let cut = clean.prefix(clean.count * 3 / 4)
        let image = try PNGCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 128))
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .truncated)
        let row = try #require(issue.firstDamagedRow, "the cut is inside the last pass")
        #expect(row > 16 && row < 112 && row % 2 == 1, "damaged from odd row \(row)")
        #expect(Fixtures.topRows(image.pixels, row) == Fixtures.topRows(reference, row))
        for even in stride(from: 0, to: 128, by: 2) {
            #expect(Self.row(image.pixels, even) == Self.row(reference, even), "even row \(even) is complete after pass 6")
        }
        #expect(Self.row(image.pixels, row) != Self.row(reference, row), "odd row \(row) was not in the file")
        #expect(Fixtures.codingError { try PNGCoder().decode(cut, options: Fixtures.strict) } != nil)
    }

    @Test func adam7CutInAnEarlyPassShowsTheWholeImageCoarsely() throws {
        let (clean, reference) = try Self.cleanAdam7()
        let cut = clean.prefix(clean.count / 5) // inside pass 4 or 5: a coarse picture of every row
        let image = try PNGCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 128))
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .truncated && issue.firstDamagedRow == nil)
        // Pixel (0, 0) comes from pass 1 and fills its 8×8 block.
        #expect(Array(image.pixels.bytes[0..<4]) == Array(reference.bytes[0..<4]))
        #expect(Array(image.pixels.bytes[4..<8]) == Array(reference.bytes[0..<4]), "pixel (1, 0) repeats pixel (0, 0)")
        #expect(!image.hasAlpha, "no pixel is left transparent after the first pass")
        #expect(Fixtures.codingError { try PNGCoder().decode(cut, options: Fixtures.strict) } != nil)
    }

    @Test func adam7WithGarbageInItsDataShowsThePassesBeforeIt() throws {
        let (clean, reference) = try Self.cleanAdam7()
        let idat = try #require(Fixtures.chunks(clean).first { $0.type == "IDAT" })
        var bytes = [UInt8](clean)
        let from = idat.offset + 8 + 4096
        for index in from..<(from + 64) { bytes[index] = 0xFF }
        let image = try PNGCoder().decode(Data(bytes), options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 128))
        #expect(image.issues.contains { $0.kind == .corruptData })
        #expect(Array(image.pixels.bytes[0..<4]) == Array(reference.bytes[0..<4]))
        #expect(Fixtures.codingError { try PNGCoder().decode(Data(bytes), options: Fixtures.strict) } != nil)
    }

    @Test func adam7CutBeforeItsFirstRowIsStillRefused() throws {
        let (clean, _) = try Self.cleanAdam7()
        let idat = try #require(Fixtures.chunks(clean).first { $0.type == "IDAT" })
        for length in [idat.offset, idat.offset + 12] {
            #expect(Fixtures.codingError { try PNGCoder().decode(clean.prefix(length), options: Fixtures.lenient) } != nil)
        }
    }
}
