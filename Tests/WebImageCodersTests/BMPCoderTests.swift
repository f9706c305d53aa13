import Foundation
import Testing
@testable import WebImageCoders

/// BMP decoding: bitmaps of every depth, header and compression (scripts/fixtures/make-bmp-fixtures.py),
/// compared with ImageMagick's decode of the same file.
@Suite struct BMPCoderTests {
    let coder = BMPCoder()

    static let fixtures = [
        "rgb24", "os2-core24", "rgba32-v5", "palette8", "palette4", "bilevel1", "rgb565", "rgb555", "topdown", "rle8", "rle4",
    ]

    @Test(arguments: fixtures)
    func everyDepthHeaderAndCompressionDecodesToImageMagicksPixels(name: String) throws {
        let image = try coder.decode(Fixtures.data("bmp/\(name).bmp"))
        let expected = try Fixtures.expectedPixels("bmp/\(name).rgba", width: 21, height: 13)
        #expect(image.format == .bmp)
        #expect(image.pixelSize == PixelSize(width: 21, height: 13))
        let difference = maxChannelDifference(image.pixels, expected)
        #expect(difference <= 1, "max difference \(difference)")
        #expect(image.hasAlpha == (name == "rgba32-v5"))
    }

    @Test func rleDeltaLeavesSkippedPixelsTransparent() throws {
        // 4×2 RLE8: row 0 (bottom) one run of 2 red pixels, then a delta of (1, 1), one blue pixel, end of bitmap.
        let palette: [UInt8] = [0, 0, 255, 0, 255, 0, 0, 0] // red, blue (BGRX)
        let runs: [UInt8] = [2, 0, 0, 2, 1, 1, 1, 1, 0, 1]
        let image = try coder.decode(Self.bitmap(width: 4, height: 2, bpp: 8, compression: 1, palette: palette, pixels: runs))
        #expect(image.pixels[0, 1] == RGBA(red: 255, green: 0, blue: 0))
        #expect(image.pixels[1, 1] == RGBA(red: 255, green: 0, blue: 0))
        #expect(image.pixels[2, 1] == .transparent)
        #expect(image.pixels[3, 0] == RGBA(red: 0, green: 0, blue: 255))
        #expect(image.pixels[0, 0] == .transparent)
        #expect(image.hasAlpha)
    }

    @Test func negativeHeightMeansTopDownRows() throws {
        let rows: [UInt8] = [0, 0, 255, 0, 0, 255, 0, 0] // 1×2 BGR rows padded to 4 bytes: red, then green
        let bottomUp = try coder.decode(Self.bitmap(width: 1, height: 2, bpp: 24, compression: 0, palette: [], pixels: rows))
        let topDown = try coder.decode(Self.bitmap(width: 1, height: -2, bpp: 24, compression: 0, palette: [], pixels: rows))
        #expect(topDown.pixels[0, 0] == RGBA(red: 255, green: 0, blue: 0))
        #expect(topDown.pixels[0, 1] == RGBA(red: 0, green: 255, blue: 0))
        #expect(bottomUp.pixels[0, 1] == RGBA(red: 255, green: 0, blue: 0))
        #expect(bottomUp.pixels[0, 0] == RGBA(red: 0, green: 255, blue: 0))
        #expect(topDown.pixelSize == PixelSize(width: 1, height: 2))
    }

    @Test func thirtyTwoBitPaddingThatIsZeroEverywhereIsOpaque() throws {
        let pixels: [UInt8] = [10, 20, 30, 0, 40, 50, 60, 0]
        let image = try coder.decode(Self.bitmap(width: 2, height: 1, bpp: 32, compression: 0, palette: [], pixels: pixels))
        #expect(!image.hasAlpha)
        #expect(image.pixels[0, 0] == RGBA(red: 30, green: 20, blue: 10))
    }

    @Test func sizeIsCheckedAgainstThePixelLimitBeforeAllocating() throws {
        // Claims 100,000 × 100,000 pixels with no pixel data at all.
        let data = Self.bitmap(width: 100_000, height: 100_000, bpp: 24, compression: 0, palette: [], pixels: [])
        #expect { try coder.decode(data) } throws: { ($0 as? ImageCodingError)?.code == .imageTooLarge }
        // Within the limit but without the rows: truncated, found before allocating.
        let short = Self.bitmap(width: 1000, height: 1000, bpp: 24, compression: 0, palette: [], pixels: [1, 2, 3])
        #expect { try coder.decode(short) } throws: { ($0 as? ImageCodingError)?.code == .truncatedData }
    }

    @Test func truncatedFilesThrowTypedErrorsWhenStrictAndNeverCrash() throws {
        for name in Self.fixtures {
            let data = try Fixtures.data("bmp/\(name).bmp")
            for prefix in truncations(of: data, samples: 32) {
                // A lenient decode may show the rows that are there (DamagedBMPTests); it must not crash either.
                _ = try? coder.decode(prefix)
                do {
                    _ = try coder.decode(prefix, options: ImageDecodingOptions(strict: true))
                    Issue.record("\(name) cut at \(prefix.count) of \(data.count) bytes decoded")
                } catch let error as ImageCodingError {
                    #expect([.truncatedData, .unsupportedFormat, .corruptData].contains(error.code), "\(name): \(error)")
                }
            }
        }
    }

    @Test func hostileHeadersThrowTypedErrors() throws {
        for seed in 1...300 as ClosedRange<UInt64> {
            var bytes = [UInt8](Self.bitmap(width: 8, height: 8, bpp: 8, compression: 1, palette: [], pixels: []))
            bytes += randomBytes(count: 300, seed: seed)
            // Randomise the header fields after the size, keeping "BM" and a known header size.
            for offset in 18..<54 where seed % 3 == 0 { bytes[offset] = UInt8(truncatingIfNeeded: seed &* UInt64(offset)) }
            _ = try? coder.decode(Data(bytes))
        }
        let badMasks = Self.bitmap(width: 2, height: 1, bpp: 16, compression: 3, palette: [0x0F, 0xF0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                                   pixels: [0, 0, 0, 0])
        _ = try? coder.decode(badMasks)
    }

    /// A BITMAPINFOHEADER bitmap; `palette` holds the colour table (or the masks) as stored.
    static func bitmap(width: Int, height: Int, bpp: Int, compression: Int, palette: [UInt8], pixels: [UInt8]) -> Data {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let offset = 14 + 40 + palette.count
        var bytes: [UInt8] = Array("BM".utf8) + le32(offset + pixels.count) + le32(0) + le32(offset)
        bytes += le32(40) + le32(width) + le32(height) + le16(1) + le16(bpp) + le32(compression) + le32(pixels.count)
        bytes += le32(2835) + le32(2835) + le32(bpp <= 8 ? palette.count / 4 : 0) + le32(0)
        return Data(bytes + palette + pixels)
    }
}

/// ICO and CUR: the directory, the choice of entry, PNG and bitmap entries, the AND mask.
@Suite struct ICOCoderTests {
    let coder = ICOCoder()

    @Test func largestEntryIsChosenByDefault() throws {
        let image = try coder.decode(Fixtures.data("bmp/multi.ico"))
        #expect(image.pixelSize == PixelSize(width: 256, height: 256))
        #expect(image.format == .ico)
    }

    @Test(arguments: [16, 32])
    func smallestEntryCoveringTheThumbnailIsDecoded(size: Int) throws {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: size, height: size))
        let image = try coder.decode(Fixtures.data("bmp/multi.ico"), options: options)
        #expect(image.pixelSize == PixelSize(width: size, height: size))
        let expected = try Fixtures.expectedPixels("bmp/multi-\(size).rgba", width: size, height: size)
        // ImageMagick resized the same source for each entry: compare where alpha is opaque.
        #expect(psnr(image.pixels, expected) > 30)
        #expect(image.hasAlpha)
    }

    @Test(arguments: ["mask4.ico", "mask4.cur"])
    func bitmapEntryUsesItsANDMaskForTransparency(file: String) throws {
        let image = try coder.decode(Fixtures.data("bmp/\(file)"))
        #expect(image.pixelSize == PixelSize(width: 16, height: 16))
        #expect(image.pixels[0, 0].alpha == 0)
        #expect(image.pixels[15, 7].alpha == 0)
        #expect(image.pixels[5, 5].alpha == 255)
        // Rows are stored bottom-up: image row 5 is stored row 10, palette entry (5 + 10) % 16 = 15, (255, 0, 27).
        #expect(image.pixels[5, 5] == RGBA(red: 255, green: 0, blue: 27))
        #expect(image.pixels[5, 10] == RGBA(red: 170, green: 85, blue: 18)) // stored row 5: entry 10
    }

    @Test func truncatedIconsThrowTypedErrorsAndNeverCrash() throws {
        for name in ["multi.ico", "mask4.ico"] {
            let data = try Fixtures.data("bmp/\(name)")
            for prefix in truncations(of: data, samples: 48) {
                do {
                    _ = try coder.decode(prefix)
                } catch let error as ImageCodingError {
                    #expect([.truncatedData, .corruptData, .unsupportedFormat].contains(error.code), "\(name): \(error)")
                }
            }
        }
    }

    @Test func managerDecodesBMPAndICO() throws {
        #expect(try ImageCodersManager.shared.decode(Fixtures.data("bmp/rgb24.bmp")).format == .bmp)
        #expect(try ImageCodersManager.shared.decode(Fixtures.data("bmp/mask4.ico")).format == .ico)
    }
}
