import Foundation
import Testing
@testable import WebImageCoders

/// Progressive WebP decoding (libwebp's incremental decoder): fixtures are 48×32, see WebPCoderTests.
@Suite struct WebPProgressiveDecodingTests {
    let coder = WebPCoder()
    static let fixtures = ["lossy-opaque", "lossy-alpha", "lossless-alpha", "exif-orientation6", "animated"]
    static let stills = ["lossy-opaque", "lossy-alpha", "lossless-alpha", "exif-orientation6"]

    // MARK: Fed in chunks, the end equals the one-shot decode

    @Test(arguments: fixtures, [1, 7, 100, 1000, 4096])
    func fixtureFedInChunksEndsEqualToTheOneShotDecodeAndIsCompleteOnlyAtTheEnd(_ name: String, chunkSize: Int) throws {
        let data = try Fixtures.data("webp/\(name).webp")
        try expectChunkedDecodeMatchesOneShot(data, chunkSize: chunkSize)
    }

    @Test(arguments: [false, true], [1, 7, 100, 1000, 4096])
    func freshly300By200ImageFedInChunksEndsEqualToTheOneShotDecode(lossless: Bool, chunkSize: Int) throws {
        let data = try Self.encoded300By200(lossless: lossless)
        let partials = try expectChunkedDecodeMatchesOneShot(data, chunkSize: chunkSize)
        if chunkSize < data.count / 4 {
            #expect(partials.count > 2, "\(chunkSize)-byte chunks of \(data.count) bytes gave only \(partials.count) images")
        }
    }

    @Test(arguments: [false, true])
    func partialImagesShowTheFinalImagesTopRowsAndTransparentRowsBelowGrowingDownwards(lossless: Bool) throws {
        let data = try Self.encoded300By200(lossless: lossless)
        let final = try coder.decode(data)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        var previousRows = 0
        for end in stride(from: 64, to: data.count, by: 97) {
            guard let image = try decoder.decode(data.prefix(end)) else { continue }
            #expect(image.pixelSize == final.pixelSize)
            let rows = try #require(decodedRows(image.pixels, final: final.pixels), "\(end) bytes: rows neither final nor transparent")
            #expect(rows >= previousRows)
            previousRows = rows
        }
        #expect(previousRows > 0 && previousRows <= final.pixelSize.height)
    }

    @Test(arguments: [false, true])
    func imageCutAtSixtyPercentIsFullSizeWithFinalTopRowsAndTransparentBottomRows(lossless: Bool) throws {
        let data = try Self.encoded300By200(lossless: lossless)
        let final = try coder.decode(data)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        let image = try #require(try decoder.decode(data.prefix(data.count * 6 / 10)))
        #expect(!decoder.isComplete)
        #expect(image.pixelSize == PixelSize(width: 300, height: 200))
        #expect(image.hasAlpha)
        let rows = try #require(decodedRows(image.pixels, final: final.pixels))
        #expect(rows > 20 && rows < 200, "\(rows) rows decoded from 60% of the bytes")
        #expect(image.pixels[0, 199] == .transparent && image.pixels[299, 199] == .transparent)
    }

    // MARK: Nothing yet, animations

    @Test(arguments: stills)
    func firstBytesUpToTheBitstreamHeaderGiveNil(_ name: String) throws {
        let data = try Fixtures.data("webp/\(name).webp")
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        for end in 0...30 {
            #expect(try decoder.decode(data.prefix(end)) == nil, "\(end) bytes")
        }
        #expect(!decoder.isComplete)
    }

    @Test func riffHeaderAloneGivesNil() throws {
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        #expect(try decoder.decode(Data("RIFF".utf8) + Data([0x00, 0x10, 0, 0]) + Data("WEBP".utf8)) == nil)
        #expect(!decoder.isComplete)
    }

    @Test(arguments: [1, 7, 100])
    func animationGivesNilUntilTheWholeFileHasArrivedThenAllFrames(chunkSize: Int) throws {
        let data = try Fixtures.data("webp/animated.webp")
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        var end = 0
        while end < data.count - chunkSize {
            end += chunkSize
            #expect(try decoder.decode(data.prefix(end)) == nil, "\(end) of \(data.count) bytes")
            #expect(!decoder.isComplete)
        }
        let image = try #require(try decoder.decode(data))
        #expect(decoder.isComplete)
        #expect(image.frames.count == 3)
        expectEqual(image, try coder.decode(data))
    }

    // MARK: Options

    @Test(arguments: [false, true])
    func thumbnailOptionsGiveTheThumbnailSizeForPartialAndFinalImages(lossless: Bool) throws {
        let data = try Self.encoded300By200(lossless: lossless)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 90, height: 90))
        let (partials, final, complete) = try decodeInChunks(data, coder: coder, chunkSize: 211, options: options)
        #expect(complete)
        #expect(partials.count > 2)
        let expected = try coder.decode(data, options: options)
        for image in partials {
            #expect(image.pixelSize == PixelSize(width: 90, height: 60))
            #expect(decodedRows(image.pixels, final: expected.pixels) != nil, "scaled rows neither final nor transparent")
        }
        expectEqual(try #require(final), expected)
    }

    @Test func exifOrientationArrivesWithTheLastChunkAndIsAppliedAsInTheOneShotDecode() throws {
        let data = try Fixtures.data("webp/exif-orientation6.webp")
        let options = ImageDecodingOptions(applyOrientation: true, keepsData: true)
        let (partials, final, complete) = try decodeInChunks(data, coder: coder, chunkSize: 16, options: options)
        #expect(complete)
        let image = try #require(final)
        #expect(image.pixelSize == PixelSize(width: 32, height: 48))
        #expect(image.data == data)
        expectEqual(image, try coder.decode(data, options: options))
        #expect(partials.dropLast().allSatisfy { $0.pixelSize == PixelSize(width: 48, height: 32) })
    }

    @Test func noNewRowsReturnsThePreviousPartialImageWithoutNewWork() throws {
        let data = try Self.encoded300By200(lossless: false)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        let first = try #require(try decoder.decode(data.prefix(data.count / 2)))
        #expect(try decoder.decode(data.prefix(data.count / 2)) === first)
    }

    // MARK: Bad input

    @Test(arguments: stills)
    func corruptBitstreamSignatureThrowsCorruptData(_ name: String) throws {
        var data = try Fixtures.data("webp/\(name).webp")
        let offset = try #require(bitstreamOffset(data))
        // VP8: the 3-byte start code 9D 01 2A after the 3-byte frame tag; VP8L: the signature byte 0x2F.
        let isLossless = data[data.startIndex + offset - 8 + 3] == UInt8(ascii: "L")
        data[data.startIndex + offset + (isLossless ? 0 : 3)] ^= 0xFF
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        var thrown: ImageCodingError?
        var end = 0
        while thrown == nil, end < data.count {
            end = min(end + 5, data.count)
            thrown = progressiveError { try decoder.decode(data.prefix(end)) }
        }
        #expect(thrown?.code == .corruptData, "\(name): \(String(describing: thrown))")
        #expect(end < data.count, "\(name): only noticed at the end")
    }

    @Test func randomVP8DataThrowsBeforeOrWhenTheWholeFileHasArrived() throws {
        for seed in UInt64(1)...10 {
            var data = Data("RIFF????WEBPVP8 ".utf8) + randomBytes(count: 3000, seed: seed)
            data.replaceSubrange(4..<8, with: withUnsafeBytes(of: UInt32(data.count - 8).littleEndian) { Data($0) })
            let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
            var thrown: ImageCodingError?
            for end in stride(from: 100, through: data.count, by: 100) where thrown == nil {
                thrown = progressiveError { try decoder.decode(data.prefix(end)) }
            }
            #expect(thrown?.code == .corruptData || thrown?.code == .truncatedData, "seed \(seed): \(String(describing: thrown))")
            #expect(!decoder.isComplete)
        }
    }

    @Test func garbageLossyMacroblockDataThrowsByTheEndAsTheOneShotDecodeDoes() throws {
        // 0xFF after a valid header and partition 0: the arithmetic decoder cannot tell garbage from
        // tokens, so libwebp keeps waiting; once the whole file is there the one-shot decode reports it.
        var corrupt = try Self.encoded300By200(lossless: false, noise: true)
        let start = corrupt.count / 3
        corrupt.replaceSubrange(start..<corrupt.count, with: Data(repeating: 0xFF, count: corrupt.count - start))
        let oneShot = progressiveError { try coder.decode(corrupt, options: ImageDecodingOptions(strict: true)) }
        #expect(oneShot != nil)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        var thrown: ImageCodingError?
        for end in stride(from: 0, to: corrupt.count, by: 512) where thrown == nil {
            thrown = progressiveError { try decoder.decode(corrupt.prefix(end)) }
        }
        if thrown == nil { thrown = progressiveError { try decoder.decode(corrupt) } }
        #expect(thrown?.code == oneShot?.code, "\(String(describing: thrown))")
        #expect(!decoder.isComplete)
    }

    @Test func headerOverThePixelLimitThrowsImageTooLarge() throws {
        let data = try Fixtures.data("webp/lossy-opaque.webp")
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions(maximumPixelCount: 48 * 32 - 1))
        var thrown: ImageCodingError?
        for end in 1...data.count where thrown == nil {
            thrown = progressiveError { try decoder.decode(data.prefix(end)) }
        }
        #expect(thrown?.code == .imageTooLarge)

        let huge = vp8xHeader(width: 16_000_000, height: 16_000_000)
        let hugeDecoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        #expect(progressiveError { try hugeDecoder.decode(huge) }?.code == .imageTooLarge)
    }

    @Test func dataThatIsNotWebPThrows() {
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        let error = progressiveError { try decoder.decode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1])) }
        #expect(error?.code == .unsupportedFormat)
    }

    // MARK: Helpers

    /// Feeds `data` in chunks, checking isComplete only after the last, the final image equal to the
    /// one-shot decode and every image at the full (or thumbnail) size; returns every image produced.
    @discardableResult
    private func expectChunkedDecodeMatchesOneShot(
        _ data: Data, chunkSize: Int, options: ImageDecodingOptions = ImageDecodingOptions(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Image] {
        let expected = try coder.decode(data, options: options)
        let decoder = coder.makeProgressiveDecoder(options: options)
        var images: [Image] = []
        var end = 0
        while end < data.count {
            end = min(end + chunkSize, data.count)
            let image = try decoder.decode(data.prefix(end))
            if end < data.count {
                #expect(!decoder.isComplete, "complete at \(end) of \(data.count) bytes", sourceLocation: sourceLocation)
            }
            if let image {
                images.append(image)
                #expect(image.pixelSize == expected.pixelSize, sourceLocation: sourceLocation)
                if end < data.count, images.count < 2 || images[images.count - 2] !== image {
                    #expect(decodedRows(image.pixels, final: expected.pixels) != nil,
                            "partial image at \(end) bytes: rows neither final nor transparent", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(decoder.isComplete, sourceLocation: sourceLocation)
        let final = try #require(images.last, sourceLocation: sourceLocation)
        expectEqual(final, expected, sourceLocation: sourceLocation)
        return images
    }

    /// A 300×200 test picture (gradients and shapes, with noise when asked), WebP-encoded.
    static func encoded300By200(lossless: Bool, noise: Bool = false) throws -> Data {
        var pixels = PixelBuffer(width: 300, height: 200, fill: .white)
        let random = [UInt8](randomBytes(count: 300 * 200, seed: 7))
        for y in 0..<200 {
            for x in 0..<300 {
                let inCircle = (x - 150) * (x - 150) + (y - 100) * (y - 100) < 60 * 60
                let jitter = noise ? Int(random[y * 300 + x]) / 4 : 0
                pixels[x, y] = RGBA(
                    red: UInt8((x * 255 / 299 + jitter) & 0xFF), green: UInt8((y * 255 / 199 + jitter) & 0xFF),
                    blue: inCircle ? 40 : UInt8(((x ^ y) * 3) & 0xFF)
                )
            }
        }
        return try WebPCoder().encode(Image(pixels: pixels), as: .webp, options: ImageEncodingOptions(quality: 0.8, lossless: lossless))
    }
}

/// Expects two images to be the same: pixels (and alpha flag), durations, size, orientation, loop count, format, scale, data.
private func expectEqual(_ image: Image, _ expected: Image, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(image.frames == expected.frames, "frames differ", sourceLocation: sourceLocation)
    #expect(image.orientation == expected.orientation, sourceLocation: sourceLocation)
    #expect(image.loopCount == expected.loopCount, sourceLocation: sourceLocation)
    #expect(image.format == expected.format && image.scale == expected.scale, sourceLocation: sourceLocation)
    #expect(image.data == expected.data, sourceLocation: sourceLocation)
}

/// How many rows from the top of `partial` equal `final`'s, when every row below is fully transparent
/// (all bytes zero); `nil` when `partial` is not such an image.
private func decodedRows(_ partial: PixelBuffer, final: PixelBuffer) -> Int? {
    guard partial.size == final.size else { return nil }
    let rowBytes = partial.bytesPerRow
    func row(_ buffer: PixelBuffer, _ y: Int) -> ArraySlice<UInt8> { buffer.bytes[y * rowBytes..<(y + 1) * rowBytes] }
    var rows = 0
    while rows < partial.height, row(partial, rows) == row(final, rows) { rows += 1 }
    for y in rows..<partial.height where row(partial, y).contains(where: { $0 != 0 }) { return nil }
    return rows
}

/// The offset of the VP8/VP8L bitstream (after its chunk header) in a still WebP file.
private func bitstreamOffset(_ data: Data) -> Int? {
    let bytes = [UInt8](data)
    var offset = 12
    while offset + 8 <= bytes.count {
        let tag = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
        if tag == "VP8 " || tag == "VP8L" { return offset + 8 }
        offset += 8 + size + (size & 1)
    }
    return nil
}

private func vp8xHeader(width: Int, height: Int) -> Data {
    func uint24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
    let chunk: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0] + uint24(width - 1) + uint24(height - 1)
    return Data(Array("RIFF".utf8) + [UInt8(4 + chunk.count), 0, 0, 0] + Array("WEBP".utf8) + chunk)
}

/// The `ImageCodingError` `body` throws, or `nil` when it throws nothing (or something else).
private func progressiveError(_ body: () throws -> Any?) -> ImageCodingError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? ImageCodingError
    }
}
