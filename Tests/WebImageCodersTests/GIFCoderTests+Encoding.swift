import Foundation
import Testing
@testable import WebImageCoders

extension GIFCoderTests {
    /// Three 24×20 frames of a few colours each; the middle one has transparent pixels (0, 0, 0, 0).
    private static func fewColourAnimation(loopCount: Int) -> Image {
        let durations: [Duration] = [.milliseconds(100), .milliseconds(250), .milliseconds(40)]
        let frames = (0..<3).map { n in
            var pixels = PixelBuffer(width: 24, height: 20, fill: RGBA(red: 10, green: UInt8(60 * n), blue: 200))
            for y in 0..<20 {
                for x in 0..<24 where (x * (n + 1) + y) % 7 == 0 {
                    pixels[x, y] = RGBA(red: UInt8(x * 10), green: UInt8(y * 12), blue: UInt8(n * 80))
                }
            }
            if n == 1 {
                for y in 5..<12 { for x in 3..<20 { pixels[x, y] = .transparent } }
            }
            return ImageFrame(pixels: pixels.withAlphaFlagFromContent(), duration: durations[n])
        }
        return Image(frames: frames, loopCount: loopCount)
    }

    @Test(arguments: [0, 3])
    func animationWithFewColoursRoundTripsExactlyWithDelaysAndLoopCount(loopCount: Int) throws {
        let original = Self.fewColourAnimation(loopCount: loopCount)
        let data = try GIFCoder().encode(original, as: .gif)
        let decoded = try GIFCoder().decode(data)
        #expect(decoded.frames.count == 3)
        for (frame, source) in zip(decoded.frames, original.frames) {
            #expect(frame.pixels.bytes == source.pixels.bytes)
            #expect(frame.pixels.hasAlpha == source.pixels.hasAlpha)
            #expect(frame.duration == source.duration)
        }
        #expect(decoded.loopCount == loopCount)
    }

    @Test func loopCountOneIsWrittenAsNoNetscapeExtension() throws {
        let data = try GIFCoder().encode(Self.fewColourAnimation(loopCount: 1), as: .gif)
        #expect(data.range(of: Data("NETSCAPE2.0".utf8)) == nil)
        #expect(try GIFCoder().decode(data).loopCount == 1)
    }

    @Test func delaysAreWrittenInCentisecondsAtLeastTwo() {
        #expect(GIFCoder.centiseconds(.zero) == 2)
        #expect(GIFCoder.centiseconds(.milliseconds(14)) == 2)
        #expect(GIFCoder.centiseconds(.milliseconds(25)) == 3)
        #expect(GIFCoder.centiseconds(.milliseconds(104)) == 10)
        #expect(GIFCoder.centiseconds(.seconds(1000)) == 65535)
    }

    /// Median cut to 256 colours without dithering; measured 32.1 dB on this pattern (giflib alone: 28.8; Pillow median cut on 640×480: 32.2).
    @Test func manyColoursAreQuantisedAbove30dB() throws {
        let pixels = PixelBuffer.samplePattern(width: 160, height: 120)
        let data = try GIFCoder().encode(Image(pixels: pixels), as: .gif)
        let decoded = try GIFCoder().decode(data)
        #expect(!decoded.hasAlpha)
        #expect(psnr(decoded.pixels, pixels) > 30)
    }

    /// giflib's quantiser keeps state in a static variable; the coder serialises it, so parallel
    /// encodes give the same bytes as a single one.
    @Test func concurrentQuantisingEncodesGiveIdenticalBytes() async throws {
        let image = Image(pixels: PixelBuffer.samplePattern(width: 96, height: 64, seed: 7))
        let expected = try GIFCoder().encode(image, as: .gif)
        let results = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<6 { group.addTask { try GIFCoder().encode(image, as: .gif) } }
            return try await group.reduce(into: [Data]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 == expected })
    }

    @Test func alphaBelowHalfBecomesTransparentAndTheRestOpaque() throws {
        let pixels = PixelBuffer.samplePattern(width: 64, height: 48, alpha: true)
        let decoded = try GIFCoder().decode(GIFCoder().encode(Image(pixels: pixels), as: .gif))
        #expect(decoded.hasAlpha)
        for y in 0..<48 {
            for x in 0..<64 {
                let source = pixels[x, y], result = decoded.pixels[x, y]
                #expect(result.alpha == (source.alpha < 128 ? 0 : 255))
                if source.alpha < 128 { #expect(result == .transparent) }
            }
        }
    }

    @Test func firstFrameOnlyEncodesOneFrame() throws {
        let data = try GIFCoder().encode(Self.fewColourAnimation(loopCount: 0), as: .gif,
                                         options: ImageEncodingOptions(firstFrameOnly: true))
        let decoded = try GIFCoder().decode(data)
        #expect(decoded.frames.count == 1)
        #expect(decoded.pixels.bytes == Self.fewColourAnimation(loopCount: 0).pixels.bytes)
    }

    @Test func encodingToAnotherFormatThrowsUnsupportedFormat() {
        do {
            _ = try GIFCoder().encode(Self.fewColourAnimation(loopCount: 0), as: .png)
            Issue.record("expected an error")
        } catch {
            #expect((error as? ImageCodingError)?.code == .unsupportedFormat)
        }
    }
}
