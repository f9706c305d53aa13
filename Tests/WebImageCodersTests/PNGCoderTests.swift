import Foundation
import Testing
@testable import WebImageCoders

/// One committed PNG fixture and what decoding it must give (see scripts/fixtures/make-png-fixtures.py).
struct PNGFixture: CustomTestStringConvertible, Sendable {
    let name: String
    /// The `.rgba` file with the expected pixels (an interlaced file shares its twin's).
    let expected: String
    let hasAlpha: Bool

    init(_ name: String, expected: String? = nil, alpha: Bool) {
        self.name = name
        self.expected = expected ?? name
        self.hasAlpha = alpha
    }

    var path: String { "png/\(name).png" }
    var testDescription: String { name }

    static let width = 13
    static let height = 11

    static let all: [PNGFixture] = [
        PNGFixture("gray1", alpha: false), PNGFixture("gray2", alpha: false), PNGFixture("gray4", alpha: false),
        PNGFixture("gray8", alpha: false), PNGFixture("gray16", alpha: false), PNGFixture("gray8-trns", alpha: true),
        PNGFixture("gray-alpha8", alpha: true), PNGFixture("gray-alpha16", alpha: true),
        PNGFixture("palette1", alpha: false), PNGFixture("palette2", alpha: false),
        PNGFixture("palette4", alpha: false), PNGFixture("palette8", alpha: false),
        PNGFixture("palette1-trns", alpha: true), PNGFixture("palette2-trns", alpha: true),
        PNGFixture("palette4-trns", alpha: true), PNGFixture("palette8-trns", alpha: true),
        PNGFixture("rgb8", alpha: false), PNGFixture("rgb16", alpha: false), PNGFixture("rgb8-trns", alpha: true),
        PNGFixture("rgba8", alpha: true), PNGFixture("rgba16", alpha: true),
        PNGFixture("gray1-adam7", expected: "gray1", alpha: false),
        PNGFixture("palette4-adam7", expected: "palette4", alpha: false),
        PNGFixture("rgb8-adam7", expected: "rgb8", alpha: false),
        PNGFixture("rgba16-adam7", expected: "rgba16", alpha: true),
    ]
}

@Suite struct PNGCoderTests {
    let coder = PNGCoder()

    @Test(arguments: PNGFixture.all)
    func everyColourTypeAndBitDepthDecodesToTheExpectedRGBA8Pixels(_ fixture: PNGFixture) throws {
        let image = try coder.decode(Fixtures.data(fixture.path))
        let expected = try Fixtures.expectedPixels(
            "png/\(fixture.expected).rgba", width: PNGFixture.width, height: PNGFixture.height
        )
        #expect(image.format == .png)
        #expect(image.pixelSize == expected.size)
        #expect(firstDifference(image.pixels, expected) == nil)
    }

    @Test(arguments: PNGFixture.all)
    func hasAlphaIsSetByAnAlphaColourTypeOrATRNSChunk(_ fixture: PNGFixture) throws {
        let image = try coder.decode(Fixtures.data(fixture.path))
        #expect(image.hasAlpha == fixture.hasAlpha)
        if !image.hasAlpha { #expect(image.pixels.isOpaque) }
    }

    @Test(arguments: PNGFixture.all)
    func decodeEncodeDecodeIsPixelExact(_ fixture: PNGFixture) throws {
        let first = try coder.decode(Fixtures.data(fixture.path))
        let encoded = try coder.encode(first, as: .png)
        let second = try coder.decode(encoded)
        #expect(firstDifference(first.pixels, second.pixels) == nil)
        #expect(second.hasAlpha == first.hasAlpha)
    }

    @Test func samplePatternWithAlphaRoundTripsExactly() throws {
        let pixels = PixelBuffer.samplePattern(width: 97, height: 61, alpha: true)
        let encoded = try coder.encode(Image(pixels: pixels), as: .png)
        #expect(colourType(of: encoded) == 6)
        let decoded = try coder.decode(encoded)
        #expect(decoded.hasAlpha)
        #expect(firstDifference(decoded.pixels, pixels) == nil)
    }

    @Test func anOpaqueImageEncodesAsColourTypeRGBAndDecodesOpaque() throws {
        let pixels = PixelBuffer.samplePattern(width: 64, height: 48)
        let encoded = try coder.encode(Image(pixels: pixels), as: .png)
        #expect(colourType(of: encoded) == 2)
        #expect(encoded[24] == 8) // bit depth
        let decoded = try coder.decode(encoded)
        #expect(!decoded.hasAlpha)
        #expect(firstDifference(decoded.pixels, pixels) == nil)
    }

    @Test func onlyTheFirstFrameIsEncoded() throws {
        let first = ImageFrame(pixels: PixelBuffer(width: 4, height: 3, fill: .white), duration: .milliseconds(100))
        let second = ImageFrame(pixels: PixelBuffer(width: 4, height: 3, fill: .black), duration: .milliseconds(100))
        let decoded = try coder.decode(coder.encode(Image(frames: [first, second]), as: .png))
        #expect(decoded.frames.count == 1)
        #expect(decoded.pixels == first.pixels)
    }

    @Test(arguments: ["png/rgb8.png", "png/rgba16-adam7.png", "png/palette4-trns.png", "png/exif-orientation6.png"])
    func aFileCutAtAnyPointThrowsTruncatedDataWhenStrict(_ name: String) throws {
        let data = try Fixtures.data(name)
        for prefix in truncations(of: data) {
            let error = #expect(throws: ImageCodingError.self, "cut at \(prefix.count) of \(data.count)") {
                try coder.decode(prefix, options: ImageDecodingOptions(strict: true))
            }
            #expect(error?.code == .truncatedData, "cut at \(prefix.count): \(String(describing: error))")
        }
    }

    @Test func aFileMissingOnlyItsIENDChunkThrowsTruncatedDataWhenStrict() throws {
        let data = try Fixtures.data("png/rgba8.png")
        #expect(data.suffix(8).prefix(4) == Data("IEND".utf8))
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(data.dropLast(12), options: ImageDecodingOptions(strict: true)) }
        #expect(error?.code == .truncatedData)
    }

    @Test func aFlippedByteInIDATIsACRCMismatchAndThrowsCorruptDataWhenStrict() throws {
        var data = try Fixtures.data("png/rgb8.png")
        let idat = try #require(chunkOffset(of: "IDAT", in: data))
        data[idat + 8 + 20] ^= 0x40
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(data, options: ImageDecodingOptions(strict: true)) }
        #expect(error?.code == .corruptData)
    }

    @Test func aCRCMismatchInAnAncillaryChunkThrowsCorruptDataWhenStrict() throws {
        var data = try Fixtures.data("png/exif-orientation6.png")
        let exif = try #require(chunkOffset(of: "eXIf", in: data))
        data[exif + 8 + 3] ^= 0x01
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(data, options: ImageDecodingOptions(strict: true)) }
        #expect(error?.code == .corruptData)
    }

    @Test func theSignatureFollowedByRandomBytesThrows() throws {
        let signature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        for seed in UInt64(1)...8 {
            let data = signature + randomBytes(count: 2000, seed: seed)
            #expect(coder.canDecode(data))
            #expect(throws: ImageCodingError.self) { try coder.decode(data) }
        }
        #expect(throws: ImageCodingError.self) { try coder.decode(randomBytes(count: 500, seed: 9)) }
    }

    @Test(arguments: ["png/palette4-trns.png", "png/rgba16-adam7.png", "png/exif-orientation6.png"])
    func corruptChunkContentWithValidCRCsDecodesOrThrowsButNeverCrashes(_ name: String) throws {
        let data = try Fixtures.data(name)
        for (index, offset) in stride(from: 8, to: data.count, by: 3).enumerated() {
            let mutated = withFixedCRCs(flipping: offset, by: UInt8(truncatingIfNeeded: 1 << (index % 8)), in: data)
            do {
                let image = try coder.decode(mutated)
                #expect(image.pixels.byteCount == image.pixelSize.width * image.pixelSize.height * 4)
            } catch {
                #expect(error is ImageCodingError, "flip at \(offset): \(error)")
            }
        }
    }

    @Test func anIHDRClaiming100000By100000PixelsThrowsImageTooLarge() throws {
        let data = try Fixtures.data("png/rgb8.png")
        let huge = withIHDRSize(data, width: 100_000, height: 100_000)
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(huge) }
        #expect(error?.code == .imageTooLarge)
        // Also when nothing follows the IHDR.
        let headerOnly = Data(huge.prefix(33))
        let headerError = #expect(throws: ImageCodingError.self) { try coder.decode(headerOnly) }
        #expect(headerError?.code == .imageTooLarge)
    }

    @Test func aFileOverTheMaximumPixelCountThrowsImageTooLarge() throws {
        let data = try Fixtures.data("png/rgba8.png")
        let limit = PNGFixture.width * PNGFixture.height
        let error = #expect(throws: ImageCodingError.self) {
            try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: limit - 1))
        }
        #expect(error?.code == .imageTooLarge)
        #expect(throws: Never.self) { try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: limit)) }
    }

    @Test func anIHDRWithZeroWidthThrows() throws {
        let data = withIHDRSize(try Fixtures.data("png/rgb8.png"), width: 0, height: 11)
        #expect(throws: ImageCodingError.self) { try coder.decode(data) }
    }

    @Test func theOrientationComesFromTheEXIfChunk() throws {
        let data = try Fixtures.data("png/exif-orientation6.png")
        let image = try coder.decode(data)
        #expect(image.orientation == .right)
        #expect(image.pixelSize == PixelSize(width: 13, height: 11))
        let upright = try coder.decode(data, options: ImageDecodingOptions(applyOrientation: true))
        #expect(upright.orientation == .up)
        #expect(upright.pixelSize == PixelSize(width: 11, height: 13))
        #expect(try coder.decode(Fixtures.data("png/gray8.png")).orientation == .up)
    }

    @Test func decodeOptionsApplyScaleAndKeepsData() throws {
        let data = try Fixtures.data("png/rgb8.png")
        let image = try coder.decode(data, options: ImageDecodingOptions(scale: 2, keepsData: true))
        #expect(image.scale == 2)
        #expect(image.data == data)
    }

    @Test func canDecodeOnlyPNGAndCanEncodeOnlyPNG() throws {
        #expect(coder.canDecode(try Fixtures.data("png/gray1.png")))
        #expect(!coder.canDecode(Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])))
        #expect(!coder.canDecode(Data()))
        #expect(coder.canEncode(to: .png))
        #expect(!coder.canEncode(to: .jpeg))
        let error = #expect(throws: ImageCodingError.self) {
            try coder.encode(Image(pixels: PixelBuffer(width: 2, height: 2, fill: .white)), as: .jpeg)
        }
        #expect(error?.code == .encodingFailed)
    }
}

// MARK: - Helpers

/// The first pixel where two buffers differ, described, or `nil` when they are equal.
/// The IHDR colour type byte of an encoded PNG.
private func colourType(of png: Data) -> UInt8? {
    png.count > 25 ? png[png.startIndex + 25] : nil
}

/// The offset of the first chunk of `type` (at its length field).
private func chunkOffset(of type: String, in png: Data) -> Int? {
    let bytes = [UInt8](png)
    var offset = 8
    while offset + 8 <= bytes.count {
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        if bytes[offset + 4..<offset + 8].elementsEqual(type.utf8) { return offset }
        offset += 12 + length
    }
    return nil
}

/// The same PNG with other IHDR dimensions and a valid IHDR CRC.
private func withIHDRSize(_ png: Data, width: UInt32, height: UInt32) -> Data {
    var bytes = [UInt8](png)
    for (index, value) in [width, height].enumerated() {
        for shift in 0..<4 { bytes[16 + index * 4 + shift] = UInt8(truncatingIfNeeded: value >> (24 - 8 * shift)) }
    }
    let crc = PNGCRC32.checksum(bytes[12..<29])
    for shift in 0..<4 { bytes[29 + shift] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * shift)) }
    return Data(bytes)
}

/// `png` with one byte flipped and every chunk's CRC recomputed, so the parser (not the CRC) sees the damage.
private func withFixedCRCs(flipping offset: Int, by mask: UInt8, in png: Data) -> Data {
    var bytes = [UInt8](png)
    bytes[offset] ^= mask
    var chunk = 8
    while chunk + 12 <= bytes.count {
        let length = bytes[chunk..<chunk + 4].reduce(0) { $0 << 8 | Int($1) }
        guard length <= bytes.count - chunk - 12 else { break }
        let crc = PNGCRC32.checksum(bytes[chunk + 4..<chunk + 8 + length])
        for shift in 0..<4 { bytes[chunk + 8 + length + shift] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * shift)) }
        chunk += 12 + length
    }
    return Data(bytes)
}

