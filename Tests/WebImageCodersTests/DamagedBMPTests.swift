import Foundation
import Testing
@testable import WebImageCoders

/// Issue 31 for BMP and ICO: pixel data cut short keeps the whole rows that are there (a bottom-up bitmap's are
/// the bottom ones, as Chromium shows them), the rest transparent, with an issue; `strict: true` refuses. The
/// fixtures are our own clean encodes, damaged here, and one run-length bitmap written by hand.
@Suite struct DamagedBMPTests {
    typealias Fixtures = DamagedImageTests

    /// A clean 24-bit bottom-up BMP of 64×64 opaque noise, where its pixel rows start, and its decode.
    static func cleanBMP() throws -> (data: Data, pixelStart: Int, pixels: PixelBuffer) {
        let data = try BMPCoder().encode(Image(pixels: Fixtures.noise()), as: .bmp, options: ImageEncodingOptions())
        let start = Int(data[10]) | Int(data[11]) << 8
        return (data, start, try BMPCoder().decode(data, options: Fixtures.strict).pixels)
    }

    static let rowBytes = 64 * 4

    @Test func bottomUpBMPCutInItsPixelDataKeepsTheBottomRowsItHoldsTheRestTransparent() throws {
        let (clean, start, reference) = try Self.cleanBMP()
        let cut = clean.prefix(start + 20 * 64 * 3 + 100) // 20 whole stored rows and part of the 21st
        let image = try BMPCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        #expect(image.issues.map(\.kind) == [.truncated])
        #expect(image.issues.first?.firstDamagedRow == 0, "the top rows are the missing ones")
        #expect(image.pixels.bytes[(44 * Self.rowBytes)...] == reference.bytes[(44 * Self.rowBytes)...], "the bottom 20 rows")
        #expect(image.pixels.bytes[..<(44 * Self.rowBytes)].allSatisfy { $0 == 0 }, "the 44 rows above are transparent")
        #expect(image.hasAlpha)
        #expect(Fixtures.codingError { try BMPCoder().decode(cut, options: Fixtures.strict) }?.code == .truncatedData)
    }

    @Test func topDownBMPCutInItsPixelDataKeepsTheTopRowsItHolds() throws {
        let (clean, start, reference) = try Self.cleanBMP()
        var bytes = [UInt8](clean)
        // A negative height makes the same rows top-down: the image is the clean one upside down.
        for (index, byte) in [0xC0, 0xFF, 0xFF, 0xFF].enumerated() { bytes[22 + index] = UInt8(byte) } // −64
        let cut = Data(bytes.prefix(start + 20 * 64 * 3))
        let image = try BMPCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.issues.first?.firstDamagedRow == 20)
        for row in 0..<20 {
            let flipped = 63 - row
            #expect(image.pixels.bytes[(row * Self.rowBytes)..<((row + 1) * Self.rowBytes)]
                    == reference.bytes[(flipped * Self.rowBytes)..<((flipped + 1) * Self.rowBytes)], "row \(row)")
        }
        #expect(image.pixels.bytes[(20 * Self.rowBytes)...].allSatisfy { $0 == 0 })
    }

    /// A 4×4 RLE8 bitmap (two palette colours): every stored row a run of 4 pixels of colour 1, then end of line.
    static func runLengthBMP() -> Data {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let runs: [UInt8] = [4, 1, 0, 0, 4, 1, 0, 0, 4, 1, 0, 0, 4, 1, 0, 1]
        let palette: [UInt8] = [0, 0, 0, 0, 0, 0, 255, 0] // black, red (BGR0)
        let info = le32(40) + le32(4) + le32(4) + [1, 0, 8, 0] + le32(1) + le32(runs.count) + le32(0) + le32(0) + le32(2) + le32(0)
        let start = 14 + info.count + palette.count
        let file: [UInt8] = [0x42, 0x4D] + le32(start + runs.count) + le32(0) + le32(start) + info + palette + runs
        return Data(file)
    }

    @Test func runLengthBMPCutBeforeItsEndCodeKeepsTheRunsBeforeTheCut() throws {
        let clean = Self.runLengthBMP()
        let whole = try BMPCoder().decode(clean, options: Fixtures.strict)
        #expect(whole.pixels.bytes.allSatisfy { $0 == 0 || $0 == 255 } && whole.pixels[0, 0] == RGBA(red: 255, green: 0, blue: 0))
        let cut = clean.prefix(clean.count - 8) // the last two rows' runs are missing
        let image = try BMPCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 4, height: 4))
        #expect(image.issues.map(\.kind) == [.truncated])
        #expect(image.pixels[3, 3] == RGBA(red: 255, green: 0, blue: 0), "the bottom rows are decoded")
        #expect(image.pixels[0, 2] == RGBA(red: 255, green: 0, blue: 0))
        #expect(image.pixels[0, 1].alpha == 0 && image.pixels[0, 0].alpha == 0, "the top rows are transparent")
        #expect(Fixtures.codingError { try BMPCoder().decode(cut, options: Fixtures.strict) }?.code == .truncatedData)
    }

    @Test func iconCutInItsPNGImageKeepsTheRowsBeforeTheCut() throws {
        let clean = try ICOCoder().encode(Image(pixels: Fixtures.noise()), as: .ico, options: ImageEncodingOptions())
        let reference = try ICOCoder().decode(clean, options: Fixtures.strict).pixels
        let cut = clean.prefix(clean.count / 2)
        let image = try ICOCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.format == .ico && image.pixelSize == PixelSize(width: 64, height: 64))
        let row = try #require(image.issues.first?.firstDamagedRow)
        #expect(row > 8 && row < 56)
        #expect(Fixtures.topRows(image.pixels, row) == Fixtures.topRows(reference, row))
        #expect(image.pixels.bytes[(row * Self.rowBytes)...].allSatisfy { $0 == 0 })
        #expect(Fixtures.codingError { try ICOCoder().decode(cut, options: Fixtures.strict) }?.code == .truncatedData)
    }

    @Test func bmpWithoutAWholeRowOrCutInItsHeaderIsStillRefused() throws {
        let (clean, start, _) = try Self.cleanBMP()
        for length in [10, 30, start, start + 64 * 3 - 1] {
            #expect(Fixtures.codingError { try BMPCoder().decode(clean.prefix(length), options: Fixtures.lenient) } != nil,
                    "cut after \(length) bytes")
        }
        let icon = try ICOCoder().encode(Image(pixels: Fixtures.noise()), as: .ico, options: ImageEncodingOptions())
        for length in [4, 20, 30] {
            #expect(Fixtures.codingError { try ICOCoder().decode(icon.prefix(length), options: Fixtures.lenient) } != nil)
        }
    }
}
