import Foundation
import Testing
@testable import WebImageCoders

/// What `ImageEncodingOptions` changes in the files the encoders write, read from the bytes themselves.
@Suite struct EncoderSettingsTests {
    static let photo = PixelBuffer.samplePattern(width: 64, height: 48)

    /// The PNG IHDR field at `offset` from the start of the file (25: colour type, 28: interlace method).
    func ihdr(_ png: Data, _ offset: Int) -> UInt8 { [UInt8](png)[offset] }

    @Test func progressiveWritesAnInterlacedPNG() throws {
        let plain = try PNGCoder().encode(Image(pixels: Self.photo), as: .png, options: ImageEncodingOptions())
        let interlaced = try PNGCoder().encode(Image(pixels: Self.photo), as: .png, options: ImageEncodingOptions(progressive: true))
        #expect(ihdr(plain, 28) == 0)
        #expect(ihdr(interlaced, 28) == 1)
        #expect(try PNGCoder().decode(interlaced).pixels.bytes == Self.photo.bytes)
    }

    @Test func paletteColorsWritesAPalettePNGWithThatManyColoursAtMost() throws {
        let png = try PNGCoder().encode(Image(pixels: Self.photo), as: .png, options: ImageEncodingOptions(paletteColors: 16))
        #expect(ihdr(png, 25) == 3)
        let bytes = [UInt8](png)
        let plte = try #require((8..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("PLTE".utf8) })
        let length = bytes[(plte - 4)..<plte].reduce(0) { $0 << 8 | Int($1) }
        #expect(length / 3 <= 16 && length / 3 >= 2)
        let decoded = try PNGCoder().decode(png)
        #expect(decoded.pixelSize == Self.photo.size)
        #expect(psnr(decoded.pixels, Self.photo) > 20)
    }

    @Test func aPalettePNGKeepsTransparentPixelsTransparent() throws {
        let pixels = PixelBuffer.samplePattern(width: 32, height: 32, alpha: true)
        let png = try PNGCoder().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions(paletteColors: 64))
        #expect(ihdr(png, 25) == 3)
        let decoded = try PNGCoder().decode(png).pixels
        for index in stride(from: 3, to: pixels.bytes.count, by: 4) {
            #expect((pixels.bytes[index] < 128) == (decoded.bytes[index] == 0))
        }
    }

    @Test func progressiveJPEGHasAnSOF2Marker() throws {
        let data = try JPEGCoder().encode(Image(pixels: Self.photo), as: .jpeg, options: ImageEncodingOptions(progressive: true))
        let bytes = [UInt8](data)
        #expect((0..<(bytes.count - 1)).contains { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 })
    }

    @Test(arguments: [ImageFormat.webp, .avif, .jpegXL])
    func effortChangesTheEncoderWork(format: ImageFormat) throws {
        let fast = try ImageCodersManager.shared.encode(Image(pixels: Self.photo), as: format, options: ImageEncodingOptions(quality: 0.7, effort: 0))
        let slow = try ImageCodersManager.shared.encode(Image(pixels: Self.photo), as: format, options: ImageEncodingOptions(quality: 0.7, effort: 1))
        #expect(fast != slow)
        #expect(try ImageCodersManager.shared.decode(fast).pixelSize == Self.photo.size)
        #expect(try ImageCodersManager.shared.decode(slow).pixelSize == Self.photo.size)
    }

    @Test func effortMapsOntoEachEncodersScale() {
        #expect(ImageEncodingOptions(effort: 0).effort(in: 0...6) == 0)
        #expect(ImageEncodingOptions(effort: 1).effort(in: 0...6) == 6)
        #expect(ImageEncodingOptions(effort: 4.0 / 6).effort(in: 0...6) == 4)
        #expect(ImageEncodingOptions(effort: 3).effort == 1)
        #expect(ImageEncodingOptions().effort(in: 1...9) == nil)
    }

    @Test func opaqueTIFFIsJPEGCompressedAndTheQualityChangesItsSize() throws {
        let coder = TIFFCoder()
        let high = try coder.encode(Image(pixels: Self.photo), as: .tiff, options: ImageEncodingOptions(quality: 0.95))
        let low = try coder.encode(Image(pixels: Self.photo), as: .tiff, options: ImageEncodingOptions(quality: 0.2))
        #expect(low.count < high.count)
        #expect(try Self.tiffTag(259, in: high) == 7) // Compression: JPEG
        let decoded = try coder.decode(high)
        #expect(decoded.pixelSize == Self.photo.size)
        #expect(psnr(decoded.pixels, Self.photo) > 25)
    }

    @Test func tiffWithAlphaIsLosslessDeflate() throws {
        let pixels = PixelBuffer.samplePattern(width: 30, height: 20, alpha: true)
        let data = try TIFFCoder().encode(Image(pixels: pixels, orientation: .left), as: .tiff, options: ImageEncodingOptions())
        #expect(try Self.tiffTag(259, in: data) == 8) // Compression: Deflate
        #expect(try Self.tiffTag(274, in: data) == 8) // Orientation: left
        let decoded = try TIFFCoder().decode(data)
        #expect(decoded.orientation == .left)
        // libtiff's RGBA reader premultiplies and the decoder divides again: what is seen stays within a level.
        #expect(maxVisibleDifference(decoded.pixels, pixels) <= 1)
    }

    @Test(arguments: [true, false])
    func bmpRoundTripsExactly(alpha: Bool) throws {
        let pixels = PixelBuffer.samplePattern(width: 33, height: 7, alpha: alpha)
        let data = try BMPCoder().encode(Image(pixels: pixels), as: .bmp, options: ImageEncodingOptions())
        #expect(Array(data.prefix(2)) == Array("BM".utf8))
        let decoded = try BMPCoder().decode(data).pixels
        #expect(decoded.hasAlpha == alpha)
        #expect(decoded.bytes == pixels.bytes)
    }

    @Test func icoHoldsOnePNGEntryAndRefusesMoreThan256() throws {
        let pixels = PixelBuffer.samplePattern(width: 256, height: 128, alpha: true)
        let data = try ICOCoder().encode(Image(pixels: pixels), as: .ico, options: ImageEncodingOptions())
        #expect(Array(data.prefix(6)) == [0, 0, 1, 0, 1, 0])
        #expect(data[data.startIndex + 6] == 0) // 256 is written as 0
        let decoded = try ICOCoder().decode(data)
        #expect(decoded.pixelSize == pixels.size)
        #expect(decoded.pixels.bytes == pixels.bytes)
        #expect(throws: ImageCodingError.self) {
            _ = try ICOCoder().encode(Image(pixels: .samplePattern(width: 257, height: 10)), as: .ico, options: ImageEncodingOptions())
        }
    }

    /// The value of a SHORT tag in the first IFD of a little-endian TIFF.
    static func tiffTag(_ tag: Int, in data: Data) throws -> Int? {
        let bytes = [UInt8](data)
        func le(_ at: Int, _ count: Int) -> Int { bytes[at..<(at + count)].reversed().reduce(0) { $0 << 8 | Int($1) } }
        try #require(bytes.starts(with: [0x49, 0x49, 42, 0]))
        let ifd = le(4, 4)
        for index in 0..<le(ifd, 2) where le(ifd + 2 + 12 * index, 2) == tag {
            return le(ifd + 2 + 12 * index + 8, 2)
        }
        return nil
    }
}
