import Foundation
import Testing
@testable import WebImageCoders

/// One APNG fixture and what the reference compositor says it holds (scripts/fixtures/make-apng-fixtures.py).
struct APNGFixture: Decodable {
    var width: Int
    var height: Int
    var frameCount: Int
    var durationsMilliseconds: [Double]
    var loopCount: Int

    static let names = [
        "apng-dispose-none", "apng-dispose-background", "apng-dispose-previous", "apng-default-image-palette",
        "apng-rgba16-adam7", "apng-one-frame", "apng-pillow",
    ]

    static func load(_ name: String) throws -> (png: Data, expected: APNGFixture, frames: [PixelBuffer]) {
        let expected = try JSONDecoder().decode(APNGFixture.self, from: Fixtures.data("apng/\(name).json"))
        let rgba = try [UInt8](Fixtures.data("apng/\(name).rgba"))
        let frameBytes = expected.width * expected.height * 4
        try #require(rgba.count == frameBytes * expected.frameCount)
        let frames = (0..<expected.frameCount).map {
            PixelBuffer(width: expected.width, height: expected.height, hasAlpha: true,
                        bytes: Array(rgba[($0 * frameBytes)..<(($0 + 1) * frameBytes)]))
        }
        return (try Fixtures.data("apng/\(name).png"), expected, frames)
    }
}

@Suite struct APNGDecodingTests {
    let coder = PNGCoder()
    /// Refuses damage, as every decode did before issue 31.
    static let strict = ImageDecodingOptions(strict: true)

    @Test(arguments: APNGFixture.names)
    func everyFrameIsCompositedExactlyAsTheReferenceWithItsDurationAndTheLoopCount(_ name: String) throws {
        let (png, expected, frames) = try APNGFixture.load(name)
        let image = try coder.decode(png)
        #expect(image.format == .png)
        #expect(image.frames.count == expected.frameCount)
        #expect(image.loopCount == expected.loopCount)
        for (index, (frame, reference)) in zip(image.frames, frames).enumerated() {
            #expect(frame.pixels.size == reference.size)
            #expect(frame.pixels.bytes == reference.bytes, "frame \(index): \(firstDifference(frame.pixels, reference) ?? "")")
            #expect(frame.pixels.hasAlpha == !reference.isOpaque, "frame \(index)")
            let duration = expected.frameCount == 1 ? .zero : Duration.nanoseconds(Int64(expected.durationsMilliseconds[index] * 1_000_000))
            #expect(frame.duration == duration, "frame \(index)")
        }
    }

    @Test func delaysOf10MillisecondsOrLessPlayAs100AndADenominatorOf0Means100() throws {
        // apng-dispose-none: 50/1000, 0/0, 3/100, 1/100.
        let image = try coder.decode(Fixtures.data("apng/apng-dispose-none.png"))
        #expect(image.frames.map(\.duration) == [.milliseconds(50), .milliseconds(100), .milliseconds(30), .milliseconds(100)])
    }

    @Test func numPlaysIsTheLoopCountWith0MeaningForever() throws {
        #expect(try coder.decode(Fixtures.data("apng/apng-dispose-none.png")).loopCount == 0)
        #expect(try coder.decode(Fixtures.data("apng/apng-dispose-previous.png")).loopCount == 2)
        #expect(try coder.decode(Fixtures.data("apng/apng-rgba16-adam7.png")).loopCount == 3)
    }

    @Test func aDefaultImageThatIsNotAFrameIsNotDecodedAsOne() throws {
        let (png, expected, frames) = try APNGFixture.load("apng-default-image-palette")
        let image = try coder.decode(png)
        #expect(image.frames.count == expected.frameCount)
        #expect(image.frames.first?.pixels.bytes == frames.first?.bytes)
        // A still decoder (libpng alone) shows the default image, which differs from frame 1.
        let still = try LibPNG.decode(png, maximumPixelCount: 1000).pixels
        #expect(still.bytes != frames[0].bytes)
    }

    @Test func aPlainPNGStaysAStillImage() throws {
        let image = try coder.decode(Fixtures.data("png/rgba8.png"))
        #expect(image.frames.count == 1)
        #expect(!image.isAnimated)
        #expect(image.frames[0].duration == .zero)
    }

    @Test func aSingleFrameAPNGIsAStillImageWithDurationZero() throws {
        let image = try coder.decode(Fixtures.data("apng/apng-one-frame.png"))
        #expect(image.frames.count == 1)
        #expect(image.frames[0].duration == .zero)
    }

    @Test func firstFrameOnlyDecodesTheFirstAnimationFrame() throws {
        let (png, _, frames) = try APNGFixture.load("apng-default-image-palette")
        let image = try coder.decode(png, options: ImageDecodingOptions(firstFrameOnly: true))
        #expect(image.frames.count == 1)
        #expect(image.pixels.bytes == frames[0].bytes)
        #expect(image.frames[0].duration == .zero)
    }

    @Test func anAnimationOverTheMemoryLimitThrowsAnimationTooLargeOrGivesItsFirstFrame() throws {
        let (png, expected, frames) = try APNGFixture.load("apng-dispose-previous")
        let limit = expected.width * expected.height * 4 * expected.frameCount - 1
        let error = #expect(throws: ImageCodingError.self) {
            try coder.decode(png, options: ImageDecodingOptions(maximumAnimationByteCount: limit))
        }
        #expect(error?.code == .animationTooLarge)
        let first = try coder.decode(png, options: ImageDecodingOptions(maximumAnimationByteCount: limit, firstFrameWhenAnimationTooLarge: true))
        #expect(first.frames.count == 1)
        #expect(first.pixels.bytes == frames[0].bytes)
        let all = try coder.decode(png, options: ImageDecodingOptions(maximumAnimationByteCount: limit + 1))
        #expect(all.frames.count == expected.frameCount)
    }

    @Test func aCanvasOverTheMaximumPixelCountThrowsImageTooLarge() throws {
        let png = try Fixtures.data("apng/apng-dispose-none.png")
        let error = #expect(throws: ImageCodingError.self) {
            try coder.decode(png, options: ImageDecodingOptions(maximumPixelCount: 20 * 16 - 1))
        }
        #expect(error?.code == .imageTooLarge)
    }

    @Test(arguments: ["apng-dispose-previous", "apng-default-image-palette", "apng-rgba16-adam7"])
    func anAPNGCutAtAnyPointThrowsTruncatedDataWhenStrict(_ name: String) throws {
        let data = try Fixtures.data("apng/\(name).png")
        for prefix in truncations(of: data, samples: 200) {
            let error = #expect(throws: ImageCodingError.self, "cut at \(prefix.count)") { try coder.decode(prefix, options: Self.strict) }
            #expect(error?.code == .truncatedData, "cut at \(prefix.count) of \(data.count): \(String(describing: error))")
        }
    }

    @Test func aFlippedByteInAnFdATChunkIsACRCMismatch() throws {
        var data = try Fixtures.data("apng/apng-dispose-none.png")
        let fdat = try #require(chunks(of: data).first { $0.type == "fdAT" })
        data[fdat.data.lowerBound + 6] ^= 0x10
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(data, options: Self.strict) }
        #expect(error?.code == .corruptData)
    }

    @Test func aFrameReachingOutsideTheCanvasThrowsCorruptData() throws {
        let data = try rewritingChunks(of: "apng/apng-dispose-none.png") { chunks in
            let index = try #require(chunks.indices.filter { chunks[$0].type == "fcTL" }.dropFirst().first)
            chunks[index].payload.replaceSubrange(12..<16, with: [0, 0, 0, 13]) // x 13 + width 8 > 20
        }
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(data, options: Self.strict) }
        #expect(error?.code == .corruptData)
    }

    @Test func sequenceNumbersOutOfOrderThrowCorruptData() throws {
        let data = try rewritingChunks(of: "apng/apng-dispose-none.png") { chunks in
            let index = try #require(chunks.indices.last { chunks[$0].type == "fdAT" })
            chunks[index].payload.replaceSubrange(0..<4, with: [0, 0, 0, 1])
        }
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(data, options: Self.strict) }
        #expect(error?.code == .corruptData)
    }

    @Test func anFdATBeforeAnyFcTLThrowsCorruptData() throws {
        let data = try rewritingChunks(of: "apng/apng-default-image-palette.png") { chunks in
            let fctl = try #require(chunks.firstIndex { $0.type == "fcTL" })
            let fdat = try #require(chunks.firstIndex { $0.type == "fdAT" })
            chunks.insert(chunks[fdat], at: fctl)
        }
        let error = #expect(throws: ImageCodingError.self) { try coder.decode(data) }
        #expect(error?.code == .corruptData)
    }

    @Test func framesBeyondTheAcTLCountAreIgnoredAndFewerFramesPlayAsTheyAre() throws {
        let (_, _, frames) = try APNGFixture.load("apng-dispose-previous")
        for declared: UInt8 in [2, 9] {
            let data = try rewritingChunks(of: "apng/apng-dispose-previous.png") { chunks in
                let index = try #require(chunks.firstIndex { $0.type == "acTL" })
                chunks[index].payload[3] = declared
            }
            let image = try coder.decode(data)
            #expect(image.frames.count == min(Int(declared), frames.count))
            #expect(image.frames.map(\.pixels.bytes) == frames.prefix(Int(declared)).map(\.bytes))
        }
    }

    @Test func anAcTLAnnouncingNoFrameDecodesTheStillImage() throws {
        let data = try rewritingChunks(of: "apng/apng-one-frame.png") { chunks in
            chunks.removeAll { $0.type == "fcTL" }
        }
        let image = try coder.decode(data)
        #expect(image.frames.count == 1)
    }

    @Test func blendOverIsStraightAlphaPorterDuffRoundedToNearest() {
        let source: [UInt8] = [255, 0, 0, 128, 10, 20, 30, 255, 9, 9, 9, 0, 200, 100, 50, 64]
        var destination: [UInt8] = [0, 0, 255, 128, 1, 2, 3, 4, 7, 7, 7, 7, 0, 0, 0, 0]
        source.withUnsafeBytes { src in destination.withUnsafeMutableBytes { APNGCanvas.blendOver(src, onto: $0) } }
        // αo = 128 + 128·127/255 = 191.75 → 192; red = 255·128·255 / (128·255 + 128·127) = 170.2 → 170,
        // blue = 255·128·127 / (128·255 + 128·127) = 84.8 → 85.
        #expect(Array(destination[0..<4]) == [170, 0, 85, 192])
        #expect(Array(destination[4..<8]) == [10, 20, 30, 255]) // opaque source replaces
        #expect(Array(destination[8..<12]) == [7, 7, 7, 7])     // transparent source leaves the canvas
        #expect(Array(destination[12..<16]) == [200, 100, 50, 64]) // over transparent: the source
    }

    @Test(arguments: APNGFixture.names, [1, 100])
    func progressiveDecodingOfAnAPNGEndsEqualToTheOneShotDecode(_ name: String, chunkSize: Int) throws {
        let data = try Fixtures.data("apng/\(name).png")
        let oneShot = try coder.decode(data)
        let result = try decodeInChunks(data, coder: coder, chunkSize: chunkSize)
        #expect(result.complete)
        let final = try #require(result.final)
        #expect(final.frames == oneShot.frames)
        #expect(final.loopCount == oneShot.loopCount)
        for partial in result.partials { #expect(partial.pixelSize == oneShot.pixelSize) }
    }
}

// MARK: - Helpers

private struct RawChunk {
    var type: String
    var payload: [UInt8]
    var data: Range<Int>
}

private func chunks(of png: Data) -> [RawChunk] {
    let bytes = [UInt8](png)
    var offset = 8, result: [RawChunk] = []
    while offset + 12 <= bytes.count {
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
        result.append(RawChunk(type: type, payload: Array(bytes[offset + 8..<offset + 8 + length]), data: (offset + 8)..<(offset + 8 + length)))
        offset += 12 + length
    }
    return result
}

/// The fixture with its chunks edited by `edit` and every CRC recomputed.
private func rewritingChunks(of name: String, _ edit: (inout [RawChunk]) throws -> Void) throws -> Data {
    var list = try chunks(of: Fixtures.data(name))
    try edit(&list)
    var out = Data(APNGChunkReader.signature)
    for chunk in list {
        let body = Array(chunk.type.utf8) + chunk.payload
        let crc = body.withUnsafeBytes { PNGCRC32.checksum($0) }
        out.append(contentsOf: withUnsafeBytes(of: UInt32(chunk.payload.count).bigEndian, Array.init))
        out.append(contentsOf: body)
        out.append(contentsOf: withUnsafeBytes(of: crc.bigEndian, Array.init))
    }
    return out
}

extension APNGDecodingTests {
    @Test func aPartialAPNGGivesTheFramesReceivedSoFar() throws {
        let (png, expected, frames) = try APNGFixture.load("apng-dispose-previous")
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        var frameCounts: [Int] = []
        for end in stride(from: 50, to: png.count, by: 50) {
            guard let image = try decoder.decode(png.prefix(end)) else { continue }
            #expect(image.pixelSize == PixelSize(width: expected.width, height: expected.height))
            if frameCounts.last != image.frames.count { frameCounts.append(image.frames.count) }
            if image.frames.count > 1 {
                #expect(image.frames.map(\.pixels.bytes) == frames.prefix(image.frames.count).map(\.bytes))
            }
        }
        #expect(!decoder.isComplete)
        #expect(frameCounts.count > 2, "frame counts seen: \(frameCounts)")
        #expect(frameCounts == frameCounts.sorted())
    }
}
