import Foundation
import Testing
@testable import WebImageCoders

@Suite struct PNGProgressiveDecodingTests {
    let coder = PNGCoder()

    static let fixtures = PNGFixture.all.map(\.path) + ["png/exif-orientation6.png", "png/progressive-rgb8-adam7.png"]

    @Test(arguments: fixtures, [1, 7, 64, 1000])
    func everyFixtureFedInChunksEndsEqualToTheOneShotDecode(_ name: String, chunkSize: Int) throws {
        let data = try Fixtures.data(name)
        try expectChunkedDecodeMatchesOneShot(data, chunkSize: chunkSize)
    }

    @Test(arguments: [100, 4096])
    func freshlyEncodedImagesFedInChunksEndEqualToTheOneShotDecode(chunkSize: Int) throws {
        for (width, height, alpha) in [(97, 61, true), (300, 200, false), (1, 1, true)] {
            let pixels = PixelBuffer.samplePattern(width: width, height: height, alpha: alpha)
            let data = try coder.encode(Image(pixels: pixels), as: .png)
            try expectChunkedDecodeMatchesOneShot(data, chunkSize: chunkSize)
        }
    }

    @Test func optionsApplyToPartialAndFinalImages() throws {
        let data = try coder.encode(Image(pixels: .samplePattern(width: 120, height: 80, alpha: true)), as: .png)
        let options = ImageDecodingOptions(scale: 2, thumbnailPixelSize: PixelSize(width: 30, height: 30), keepsData: true)
        let result = try decodeInChunks(data, coder: coder, chunkSize: 500, options: options)
        #expect(result.partials.count > 1)
        for partial in result.partials {
            #expect(partial.pixelSize == PixelSize(width: 30, height: 20))
            #expect(partial.scale == 2)
        }
        let oneShot = try coder.decode(data, options: options)
        let final = try #require(result.final)
        #expect(final.pixels == oneShot.pixels)
        #expect(final.data == data)
    }

    @Test func aNonInterlacedImageCutInsideIDATShowsItsTopRowsExactlyAndTransparentRowsBelow() throws {
        let source = PixelBuffer.samplePattern(width: 80, height: 60, alpha: false)
        let data = try coder.encode(Image(pixels: source), as: .png)
        let idat = try #require(chunkRange(of: "IDAT", in: data))
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        let partial = try #require(try decoder.decode(data.prefix(idat.lowerBound + idat.count / 2)))
        #expect(!decoder.isComplete)
        #expect(partial.pixelSize == source.size)
        let received = (0..<source.height).first { y in (0..<source.width).allSatisfy { partial.pixels[$0, y].alpha == 0 } }
        let firstMissingRow = try #require(received)
        #expect(firstMissingRow > 5 && firstMissingRow < source.height - 5, "first missing row \(firstMissingRow)")
        for y in 0..<source.height {
            for x in 0..<source.width {
                let expected = y < firstMissingRow ? source[x, y] : RGBA.transparent
                #expect(partial.pixels[x, y] == expected, "(\(x), \(y))")
                if partial.pixels[x, y] != expected { return }
            }
        }
    }

    @Test func anInterlacedImageGivesAFullSizeCoarsePreviewAfterItsFirstPasses() throws {
        let data = try Fixtures.data("png/progressive-rgb8-adam7.png")
        let final = try coder.decode(data)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        var preview: (image: Image, bytes: Int)?
        for end in stride(from: 16, to: data.count, by: 16) {
            guard let image = try decoder.decode(data.prefix(end)) else { continue }
            #expect(image.pixelSize == final.pixelSize)
            if image.pixels.isOpaque { preview = (image, end); break }
        }
        // Pass 1 holds 1/64 of the pixels: it covers the whole canvas long before half the file.
        let (image, bytes) = try #require(preview)
        #expect(bytes < data.count / 2, "first full preview after \(bytes) of \(data.count) bytes")
        #expect(!decoder.isComplete)
        #expect(image.pixels != final.pixels)
        // Pass 1's pixels are exact, and each fills its 8×8 block.
        for y in 0..<final.pixels.height {
            for x in 0..<final.pixels.width {
                #expect(image.pixels[x, y] == final.pixels[x - x % 8, y - y % 8], "(\(x), \(y))")
                if image.pixels[x, y] != final.pixels[x - x % 8, y - y % 8] { return }
            }
        }
    }

    @Test func anInterlacedImageRefinesPassByPass() throws {
        let data = try Fixtures.data("png/progressive-rgb8-adam7.png")
        let final = try coder.decode(data)
        let result = try decodeInChunks(data, coder: coder, chunkSize: 64)
        // The number of pixels equal to the final image never decreases, and ends at all of them.
        let exactCounts = result.partials.map { partial in
            (0..<final.pixels.height).reduce(0) { sum, y in
                sum + (0..<final.pixels.width).count { partial.pixels[$0, y] == final.pixels[$0, y] }
            }
        }
        #expect(exactCounts == exactCounts.sorted())
        #expect(exactCounts.last == final.pixels.width * final.pixels.height)
        #expect(Set(exactCounts).count > 5)
    }

    @Test func theSignatureAloneOrAPartialHeaderDecodesToNil() throws {
        let data = try Fixtures.data("png/rgba8.png")
        for end in [1, 8, 20, 33] {
            let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
            #expect(try decoder.decode(data.prefix(end)) == nil, "first \(end) bytes")
            #expect(!decoder.isComplete)
        }
    }

    @Test func aRepeatedCallWithNoNewBytesReturnsTheSameImage() throws {
        let data = try coder.encode(Image(pixels: .samplePattern(width: 60, height: 40)), as: .png)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        let first = try #require(try decoder.decode(data.prefix(data.count * 2 / 3)))
        let again = try #require(try decoder.decode(data.prefix(data.count * 2 / 3)))
        #expect(first === again)
    }

    @Test func isCompleteOnlyOnceIENDHasArrived() throws {
        let data = try Fixtures.data("png/rgba8.png")
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        _ = try decoder.decode(data.dropLast(1))
        #expect(!decoder.isComplete)
        _ = try decoder.decode(data)
        #expect(decoder.isComplete)
    }

    @Test func aFlippedByteIsACRCMismatchAndThrowsCorruptDataAndKeepsThrowing() throws {
        var data = try Fixtures.data("png/rgb8.png")
        let idat = try #require(chunkRange(of: "IDAT", in: data))
        data[idat.lowerBound + 20] ^= 0x40
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        var error = #expect(throws: ImageCodingError.self) {
            var end = 0
            while end < data.count {
                end = min(end + 7, data.count)
                _ = try decoder.decode(data.prefix(end))
            }
        }
        #expect(error?.code == .corruptData)
        error = #expect(throws: ImageCodingError.self) { try decoder.decode(data + Data([0])) }
        #expect(error?.code == .corruptData)
    }

    @Test func aBadIHDRThrowsCorruptData() throws {
        var data = try Fixtures.data("png/rgb8.png")
        data[24] = 7 // bit depth 7
        let error = #expect(throws: ImageCodingError.self) {
            try coder.makeProgressiveDecoder(options: ImageDecodingOptions()).decode(data)
        }
        #expect(error?.code == .corruptData)
    }

    @Test func anImageOverTheMaximumPixelCountThrowsImageTooLargeFromTheHeader() throws {
        let data = try Fixtures.data("png/rgb8.png") // 13×11 = 143 pixels
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions(maximumPixelCount: 142))
        let error = #expect(throws: ImageCodingError.self) { try decoder.decode(data.prefix(60)) }
        #expect(error?.code == .imageTooLarge)
    }

    @Test func randomBytesAfterTheSignatureThrow() throws {
        let data = Data(APNGChunkReader.signature) + randomBytes(count: 200, seed: 3)
        #expect(throws: ImageCodingError.self) {
            try coder.makeProgressiveDecoder(options: ImageDecodingOptions()).decode(data)
        }
    }

    // MARK: - Helpers

    private func expectChunkedDecodeMatchesOneShot(_ data: Data, chunkSize: Int) throws {
        let oneShot = try coder.decode(data)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        var end = 0
        var last: Image?
        while end < data.count {
            end = min(end + chunkSize, data.count)
            if let image = try decoder.decode(data.prefix(end)) {
                #expect(image.pixelSize == oneShot.pixelSize)
                last = image
            }
            #expect(decoder.isComplete == (end == data.count), "isComplete after \(end) of \(data.count) bytes")
        }
        let final = try #require(last)
        #expect(final.frames == oneShot.frames)
        #expect(final.hasAlpha == oneShot.hasAlpha)
        #expect(final.orientation == oneShot.orientation)
        #expect(final.loopCount == oneShot.loopCount)
    }
}

/// The byte range of the data of the first chunk of `type`.
private func chunkRange(of type: String, in png: Data) -> Range<Int>? {
    let bytes = [UInt8](png)
    var offset = 8
    while offset + 8 <= bytes.count {
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        if bytes[offset + 4..<offset + 8].elementsEqual(type.utf8) { return (offset + 8)..<(offset + 8 + length) }
        offset += 12 + length
    }
    return nil
}

extension PNGProgressiveDecodingTests {
    @Test(arguments: [1, 64, 100_000])
    func bytesAfterIENDAreIgnoredAsByTheOneShotDecoder(chunkSize: Int) throws {
        let png = try Fixtures.data("png/rgba16-adam7.png")
        let data = png + randomBytes(count: 300, seed: 9)
        let oneShot = try coder.decode(data)
        let result = try decodeInChunks(data, coder: coder, chunkSize: chunkSize)
        #expect(result.complete)
        #expect(result.final?.pixels == oneShot.pixels)
    }
}
