import Foundation
import Testing
@testable import WebImageCoders

/// Fixtures from scripts/fixtures/make-gif-fixtures.py (Pillow 9.4 and ImageMagick 6.9); the
/// expected `.rgba` dumps come from that script's independent reference compositor, which agrees
/// with ImageMagick's `-coalesce` on every frame.
@Suite struct GIFCoderTests {
    /// What the fixture script reports about each file.
    struct Fixture: CustomStringConvertible, Sendable {
        var name: String
        var width: Int
        var height: Int
        var loopCount: Int
        var durations: [Int]  // milliseconds, after the ≤ 10 ms → 100 ms rule

        var description: String { name }
    }

    static let fixtures: [Fixture] = [
        // 12×10, one frame with a transparent index.
        Fixture(name: "still-alpha", width: 12, height: 10, loopCount: 1, durations: [0]),
        // ImageMagick: interlaced frames; a full frame, then partial rectangles with local tables and
        // disposal none, background (with a transparent index), previous, none; delays 10, 20, 0, 1 cs;
        // NETSCAPE2.0 holds 2.
        Fixture(name: "anim-im", width: 16, height: 16, loopCount: 2, durations: [100, 200, 100, 100]),
        // The same with the last frame moved to (13, 12), so it sticks out of the 16×16 canvas.
        Fixture(name: "clipped", width: 16, height: 16, loopCount: 2, durations: [100, 200, 100, 100]),
        // Pillow: transparent index 0 in every frame, disposal 1, 2, 1, delays 10, 0, 25 cs, loop 0 (forever).
        Fixture(name: "anim-pil", width: 20, height: 18, loopCount: 0, durations: [100, 100, 250]),
        // Pillow: no NETSCAPE2.0 extension, a partial second frame with a local table.
        Fixture(name: "no-loop", width: 6, height: 4, loopCount: 1, durations: [70, 30]),
        // Pillow: loop 3.
        Fixture(name: "loop-3", width: 6, height: 4, loopCount: 3, durations: [40, 40]),
    ]

    private func expectedFrames(_ fixture: Fixture) throws -> [PixelBuffer] {
        let bytes = try [UInt8](Fixtures.data("gif/\(fixture.name).rgba"))
        let frameBytes = fixture.width * fixture.height * 4
        try #require(bytes.count == frameBytes * fixture.durations.count)
        return (0..<fixture.durations.count).map { index in
            PixelBuffer(width: fixture.width, height: fixture.height, hasAlpha: true,
                        bytes: Array(bytes[index * frameBytes..<(index + 1) * frameBytes]))
        }
    }

    @Test(arguments: fixtures)
    func framesAreCompositedOntoTheFullCanvasAsBrowsersDo(_ fixture: Fixture) throws {
        let image = try GIFCoder().decode(Fixtures.data("gif/\(fixture.name).gif"))
        let expected = try expectedFrames(fixture)
        #expect(image.format == .gif)
        #expect(image.pixelSize == PixelSize(width: fixture.width, height: fixture.height))
        try #require(image.frames.count == expected.count)
        for (index, (frame, reference)) in zip(image.frames, expected).enumerated() {
            #expect(frame.pixels.bytes == reference.bytes, "frame \(index)")
            #expect(frame.pixels.hasAlpha == !frame.pixels.isOpaque, "frame \(index): hasAlpha must follow the content")
        }
    }

    @Test(arguments: fixtures)
    func durationsFollowTheGCEAndDelaysOfTenMillisecondsOrLessPlayAsOneHundredSPECK26(_ fixture: Fixture) throws {
        let image = try GIFCoder().decode(Fixtures.data("gif/\(fixture.name).gif"))
        #expect(image.frames.map(\.duration) == fixture.durations.map { .milliseconds($0) })
    }

    @Test(arguments: fixtures)
    func loopCountIsTheStoredNetscapeValueOrOneWhenAbsent(_ fixture: Fixture) throws {
        let image = try GIFCoder().decode(Fixtures.data("gif/\(fixture.name).gif"))
        #expect(image.loopCount == fixture.loopCount)
    }

    @Test func stillImageWithATransparentIndexHasAlpha() throws {
        let image = try GIFCoder().decode(Fixtures.data("gif/still-alpha.gif"))
        #expect(image.frames.count == 1)
        #expect(image.hasAlpha)
        #expect(image.pixels[0, 0] == .transparent)
        #expect(image.pixels[6, 5].alpha == 255)
    }

    @Test func opaqueFramesReportNoAlphaAndAClearedRectangleDoes() throws {
        let image = try GIFCoder().decode(Fixtures.data("gif/anim-im.gif"))
        // Frame 0 covers the canvas; frame 1 draws over it with a transparent index; frame 1's
        // disposal (restore to background) then clears its rectangle, so frame 2 shows transparency.
        #expect(image.frames.map(\.pixels.hasAlpha) == [false, false, true, true])
    }

    @Test func firstFrameOnlyStopsAfterTheFirstFrame() throws {
        let data = try Fixtures.data("gif/anim-im.gif")
        let all = try GIFCoder().decode(data)
        let first = try GIFCoder().decode(data, options: ImageDecodingOptions(firstFrameOnly: true))
        #expect(first.frames.count == 1)
        #expect(first.pixels == all.pixels)
        #expect(first.frames[0].duration == .zero)
    }

    @Test func animationsOverTheMemoryLimitThrowOrDecodeTheirFirstFrame() throws {
        let data = try Fixtures.data("gif/anim-im.gif")
        let limit = 3 * 16 * 16 * 4 - 1  // room for two frames, not three
        #expect(throws: ImageCodingError.self) {
            try GIFCoder().decode(data, options: ImageDecodingOptions(maximumAnimationByteCount: limit))
        }
        do {
            _ = try GIFCoder().decode(data, options: ImageDecodingOptions(maximumAnimationByteCount: limit))
        } catch let error as ImageCodingError {
            #expect(error.code == .animationTooLarge)
        }
        let first = try GIFCoder().decode(
            data, options: ImageDecodingOptions(maximumAnimationByteCount: limit, firstFrameWhenAnimationTooLarge: true))
        #expect(first.frames.count == 1)
        let all = try GIFCoder().decode(data, options: ImageDecodingOptions(maximumAnimationByteCount: 4 * 16 * 16 * 4))
        #expect(all.frames.count == 4)
    }

    @Test(arguments: fixtures)
    func aFileCutAnywhereThrowsWhenStrict(_ fixture: Fixture) throws {
        let data = try Fixtures.data("gif/\(fixture.name).gif")
        let strict = ImageDecodingOptions(strict: true)
        for cut in truncations(of: data) {
            #expect(throws: ImageCodingError.self, "cut at \(cut.count) of \(data.count)") {
                try GIFCoder().decode(cut, options: strict)
            }
        }
        // Only the trailer missing: truncated, not a success.
        #expect(decodeError(data.dropLast(), options: strict)?.code == .truncatedData)
    }

    @Test func aCutAfterTheFirstFrameDecodesWithFirstFrameOnly() throws {
        let data = try Fixtures.data("gif/no-loop.gif")
        let image = try GIFCoder().decode(data.dropLast(), options: ImageDecodingOptions(firstFrameOnly: true))
        #expect(image.frames.count == 1)
    }

    @Test func randomBytesAfterTheSignatureThrow() {
        for seed in 1...20 as ClosedRange<UInt64> {
            let data = Data("GIF89a".utf8) + randomBytes(count: 200 + Int(seed) * 13, seed: seed)
            #expect(throws: ImageCodingError.self) { try GIFCoder().decode(data) }
        }
    }

    @Test func aHugeLogicalScreenThrowsImageTooLargeBeforeAllocating() {
        // 65535×65535, no colour table, then one 1×1 frame.
        let data = gif(width: 0xFFFF, height: 0xFFFF, body: [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B])
        #expect(decodeError(data)?.code == .imageTooLarge)
    }

    @Test func aGIFWithoutFramesIsCorrupt() {
        #expect(decodeError(gif(width: 4, height: 4, body: [0x3B]))?.code == .corruptData)
    }

    @Test func aFrameWithoutAColourTableUsesBlackAndWhite() throws {
        // A 2×1 frame of indices 1, 0 (LZW: clear, 1, 0, end with 3-bit codes), no colour table anywhere.
        let image = try GIFCoder().decode(gif(width: 2, height: 1, body: [0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0, 2, 2, 0x0C, 0x0A, 0, 0x3B]))
        #expect(image.pixels[0, 0] == .white)
        #expect(image.pixels[1, 0] == .black)
        #expect(!image.hasAlpha)
    }

    @Test func canDecodeRecognisesGIFSignaturesOnly() throws {
        #expect(GIFCoder().canDecode(try Fixtures.data("gif/anim-im.gif")))
        #expect(GIFCoder().canDecode(Data("GIF87a".utf8) + Data(repeating: 0, count: 10)))
        #expect(!GIFCoder().canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(GIFCoder().canEncode(to: .gif))
        #expect(!GIFCoder().canEncode(to: .png))
    }

    private func decodeError(_ data: Data, options: ImageDecodingOptions = ImageDecodingOptions()) -> ImageCodingError? {
        do {
            _ = try GIFCoder().decode(data, options: options)
            return nil
        } catch {
            return error as? ImageCodingError
        }
    }

    /// A GIF89a header without a global colour table, followed by `body`.
    private func gif(width: Int, height: Int, body: [UInt8]) -> Data {
        Data("GIF89a".utf8) + Data([UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0, 0, 0] + body)
    }
}
