import Foundation
import Testing
@testable import WebImageCoders

/// Fixtures: `scripts/fixtures/make-webp-fixtures.py` (cwebp, webpmux, dwebp and Pillow); all 48×32.
@Suite struct WebPCoderTests {
    let coder = WebPCoder()
    static let width = 48
    static let height = 32
    static let stillFixtures = ["lossy-opaque", "lossy-alpha", "lossless-alpha", "exif-orientation6"]

    // MARK: Decoding

    @Test func lossyOpaqueDecodesExactlyAsDwebpWithoutAlpha() throws {
        let image = try coder.decode(Fixtures.data("webp/lossy-opaque.webp"))
        #expect(image.format == .webp)
        #expect(image.pixelSize == PixelSize(width: Self.width, height: Self.height))
        #expect(!image.hasAlpha)
        #expect(image.frames.count == 1 && image.frames[0].duration == .zero)
        #expect(try image.pixels.bytes == expected("lossy-opaque").bytes)
    }

    @Test(arguments: ["lossy-alpha", "lossless-alpha"])
    func webPWithAlphaDecodesExactlyAsDwebpWithAlpha(_ name: String) throws {
        let image = try coder.decode(Fixtures.data("webp/\(name).webp"))
        #expect(image.hasAlpha)
        #expect(try image.pixels.bytes == expected(name).bytes)
    }

    @Test func animatedWebPDecodesAsCompositedCanvasesWithDurationsAndLoopCount() throws {
        let image = try coder.decode(Fixtures.data("webp/animated.webp"))
        #expect(image.frames.count == 3)
        #expect(image.loopCount == 2)
        #expect(image.frames.map(\.duration) == [.milliseconds(100), .milliseconds(150), .milliseconds(100)])
        #expect(image.hasAlpha)
        let canvases = try expectedAnimationCanvases()
        for (index, frame) in image.frames.enumerated() {
            #expect(frame.pixels.bytes == canvases[index].bytes, "frame \(index + 1) differs from Pillow's canvas")
        }
    }

    @Test func frameDurationsOfTenMillisecondsOrLessPlayAsOneHundredMilliseconds() throws {
        // The fixture's third frame says 10 ms; re-encode with 0 ms and 11 ms frames too.
        let decoded = try coder.decode(Fixtures.data("webp/animated.webp"))
        #expect(decoded.frames[2].duration == .milliseconds(100))
        let frames = decoded.frames.enumerated().map { index, frame in
            ImageFrame(pixels: frame.pixels, duration: [.zero, .milliseconds(11), .milliseconds(7)][index])
        }
        let data = try coder.encode(Image(frames: frames), as: .webp, options: ImageEncodingOptions(lossless: true))
        let image = try coder.decode(data)
        #expect(image.frames.map(\.duration) == [.milliseconds(100), .milliseconds(11), .milliseconds(100)])
    }

    @Test func exifChunkOrientationIsReadAndOtherwiseUp() throws {
        let image = try coder.decode(Fixtures.data("webp/exif-orientation6.webp"))
        #expect(image.orientation == .right)
        #expect(image.pixelSize == PixelSize(width: Self.width, height: Self.height))
        let upright = try coder.decode(Fixtures.data("webp/exif-orientation6.webp"), options: ImageDecodingOptions(applyOrientation: true))
        #expect(upright.orientation == .up)
        #expect(upright.pixelSize == PixelSize(width: Self.height, height: Self.width))
        for name in ["lossy-opaque", "lossless-alpha", "animated"] {
            #expect(try coder.decode(Fixtures.data("webp/\(name).webp")).orientation == .up)
        }
    }

    @Test func scaledDecodeGivesTheAskedSizeAndMatchesDwebpResize() throws {
        let data = try Fixtures.data("webp/lossy-opaque.webp")
        let half = try coder.decode(data, options: ImageDecodingOptions(), scaledTo: PixelSize(width: 24, height: 16))
        #expect(half.pixelSize == PixelSize(width: 24, height: 16))
        let dwebp = try Fixtures.expectedPixels("webp/lossy-opaque-24x16.rgba", width: 24, height: 16)
        #expect(half.pixels.bytes == dwebp.bytes)
        let stretched = try coder.decode(Fixtures.data("webp/lossless-alpha.webp"), options: ImageDecodingOptions(), scaledTo: PixelSize(width: 10, height: 30))
        #expect(stretched.pixelSize == PixelSize(width: 10, height: 30))
        #expect(stretched.hasAlpha)
    }

    @Test func firstFrameOnlyDecodesOnlyTheFirstFrame() throws {
        let image = try coder.decode(Fixtures.data("webp/animated.webp"), options: ImageDecodingOptions(firstFrameOnly: true))
        #expect(image.frames.count == 1)
        #expect(image.pixels.bytes == (try expectedAnimationCanvases())[0].bytes)
    }

    @Test func canDecodeRecognisesWebPOnly() throws {
        #expect(coder.canDecode(try Fixtures.data("webp/lossy-opaque.webp")))
        #expect(coder.canDecode(try Fixtures.data("webp/animated.webp")))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
        #expect(!coder.canDecode(Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)))
        #expect(coder.canEncode(to: .webp) && !coder.canEncode(to: .png))
    }

    // MARK: Bad input

    @Test func fileCutAtAnyPointThrowsTruncatedDataWhenStrict() throws {
        for name in Self.stillFixtures + ["animated"] {
            let data = try Fixtures.data("webp/\(name).webp")
            for cut in truncations(of: data) {
                let error = codingError { try coder.decode(cut, options: ImageDecodingOptions(strict: true)) }
                #expect(error?.code == .truncatedData, "\(name) cut to \(cut.count) of \(data.count) bytes: \(String(describing: error))")
            }
        }
    }

    @Test func riffHeaderFollowedByRandomBytesThrows() throws {
        for seed in UInt64(1)...20 {
            // As written: the RIFF size "????" claims ~1 GB, so the data is too short (a lenient decode finds no pixels).
            let claimed = Data("RIFF????WEBPVP8 ".utf8) + randomBytes(count: 2000, seed: seed)
            #expect(codingError { try coder.decode(claimed, options: ImageDecodingOptions(strict: true)) }?.code == .truncatedData)
            #expect(codingError { try coder.decode(claimed) } != nil)
            // With a consistent RIFF size libwebp itself must reject the random bitstream.
            var consistent = claimed
            consistent.replaceSubrange(4..<8, with: withUnsafeBytes(of: UInt32(consistent.count - 8).littleEndian) { Data($0) })
            let error = codingError { try coder.decode(consistent) }
            #expect(error?.code == .corruptData || error?.code == .truncatedData, "seed \(seed): \(String(describing: error))")
        }
    }

    @Test func vp8xHeaderClaiming16000000By16000000ThrowsImageTooLarge() {
        let error = codingError { try coder.decode(vp8xHeaderOnly(width: 16_000_000, height: 16_000_000)) }
        #expect(error?.code == .imageTooLarge)
        let animated = codingError { try coder.decode(vp8xHeaderOnly(width: 16_000_000, height: 16_000_000, flags: 0x12)) }
        #expect(animated?.code == .imageTooLarge)
    }

    @Test(arguments: ["lossy-opaque", "lossless-alpha", "animated"])
    func pixelCountOverTheLoweredLimitThrowsImageTooLarge(_ name: String) throws {
        let data = try Fixtures.data("webp/\(name).webp")
        let options = ImageDecodingOptions(maximumPixelCount: Self.width * Self.height - 1)
        #expect(codingError { try coder.decode(data, options: options) }?.code == .imageTooLarge)
        #expect(try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: Self.width * Self.height)).pixelSize.width == Self.width)
    }

    @Test func animationOverTheMemoryLimitThrowsAnimationTooLarge() throws {
        let data = try Fixtures.data("webp/animated.webp")
        let frameBytes = Self.width * Self.height * 4
        let tooSmall = ImageDecodingOptions(maximumAnimationByteCount: 3 * frameBytes - 1)
        #expect(codingError { try coder.decode(data, options: tooSmall) }?.code == .animationTooLarge)
        let enough = ImageDecodingOptions(maximumAnimationByteCount: 3 * frameBytes)
        #expect(try coder.decode(data, options: enough).frames.count == 3)
    }

    @Test func animationOverTheMemoryLimitDecodesItsFirstFrameWhenAsked() throws {
        let data = try Fixtures.data("webp/animated.webp")
        let options = ImageDecodingOptions(maximumAnimationByteCount: 1, firstFrameWhenAnimationTooLarge: true)
        let image = try coder.decode(data, options: options)
        #expect(image.frames.count == 1)
        #expect(image.pixels.bytes == (try expectedAnimationCanvases())[0].bytes)
    }

    // MARK: Encoding

    @Test func losslessRoundTripIsExactIncludingAlphaAndHiddenColours() throws {
        let source = try coder.decode(Fixtures.data("webp/lossless-alpha.webp"))
        let data = try coder.encode(source, as: .webp, options: ImageEncodingOptions(lossless: true))
        let decoded = try coder.decode(data)
        #expect(decoded.pixels.bytes == source.pixels.bytes)
        #expect(decoded.hasAlpha)
        // The fixture's transparent rectangle keeps its colour (90, 10, 10) under alpha 0.
        #expect(decoded.pixels[4, 28] == RGBA(red: 90, green: 10, blue: 10, alpha: 0))
    }

    @Test(arguments: [false, true])
    func opaqueImageEncodesWithoutAlpha(_ lossless: Bool) throws {
        let source = try coder.decode(Fixtures.data("webp/lossy-opaque.webp"))
        let data = try coder.encode(source, as: .webp, options: ImageEncodingOptions(lossless: lossless))
        let decoded = try coder.decode(data)
        #expect(!decoded.hasAlpha)
        if lossless { #expect(decoded.pixels.bytes == source.pixels.bytes) }
    }

    /// Measured with libwebp 1.2.4: 34.2 dB (opaque, 606 bytes), 33.7 dB (with alpha, 856 bytes).
    @Test(arguments: ["lossy-opaque", "lossy-alpha"])
    func lossyRoundTripAtQuality09KeepsPSNRAtLeast30dB(_ name: String) throws {
        let source = try coder.decode(Fixtures.data("webp/\(name).webp"))
        let data = try coder.encode(source, as: .webp, options: ImageEncodingOptions(quality: 0.9))
        let decoded = try coder.decode(data)
        #expect(decoded.pixelSize == source.pixelSize)
        #expect(decoded.hasAlpha == source.hasAlpha)
        #expect(psnr(decoded.pixels, source.pixels) >= 30)
        #expect(try coder.decode(coder.encode(source, as: .webp, options: ImageEncodingOptions(quality: 0.1))).pixelSize == source.pixelSize)
    }

    @Test func losslessAnimatedRoundTripKeepsFramesDurationsLoopCountAndPixels() throws {
        let source = try coder.decode(Fixtures.data("webp/animated.webp"))
        let data = try coder.encode(source, as: .webp, options: ImageEncodingOptions(lossless: true))
        let decoded = try coder.decode(data)
        #expect(decoded.frames.count == 3)
        #expect(decoded.frames.map(\.duration) == source.frames.map(\.duration))
        #expect(decoded.loopCount == 2)
        for (index, frame) in decoded.frames.enumerated() {
            #expect(frame.pixels.bytes == source.frames[index].pixels.bytes, "frame \(index + 1)")
        }
        // libwebp re-encodes every frame without alpha (the transparency comes from disposal), so the
        // file has no VP8X alpha flag: the decoder must find the transparent pixels of frame 3 itself.
        #expect(decoded.frames.map(\.pixels.hasAlpha) == [false, false, true])
    }

    /// Photo-like frames (the lossy fixtures' decoded pixels): the animation fixture's per-pixel chroma
    /// pattern cannot survive 4:2:0 subsampling (25 dB even as a still at quality 1).
    /// Measured with libwebp 1.2.4: 34.2, 33.7, 34.2 dB, 2128 bytes (byte for byte what img2webp -lossy -q 90 writes).
    @Test func lossyAnimatedRoundTripKeepsFramesDurationsLoopCountAndPSNRAtLeast30dB() throws {
        let opaque = try coder.decode(Fixtures.data("webp/lossy-opaque.webp")).pixels
        let alpha = try coder.decode(Fixtures.data("webp/lossy-alpha.webp")).pixels
        let frames = [
            ImageFrame(pixels: opaque, duration: .milliseconds(100)),
            ImageFrame(pixels: alpha, duration: .milliseconds(150)),
            ImageFrame(pixels: opaque, duration: .milliseconds(200)),
        ]
        let data = try coder.encode(Image(frames: frames, loopCount: 3), as: .webp, options: ImageEncodingOptions(quality: 0.9))
        let decoded = try coder.decode(data)
        #expect(decoded.frames.count == 3)
        #expect(decoded.frames.map(\.duration) == frames.map(\.duration))
        #expect(decoded.loopCount == 3)
        for (index, frame) in decoded.frames.enumerated() {
            #expect(psnr(frame.pixels, frames[index].pixels) >= 30, "frame \(index + 1)")
        }
    }

    @Test func animationWithFirstFrameOnlyEncodesAStillImage() throws {
        let source = try coder.decode(Fixtures.data("webp/animated.webp"))
        let data = try coder.encode(source, as: .webp, options: ImageEncodingOptions(lossless: true, firstFrameOnly: true))
        let decoded = try coder.decode(data)
        #expect(decoded.frames.count == 1 && decoded.frames[0].duration == .zero)
        #expect(decoded.pixels.bytes == source.pixels.bytes)
    }

    @Test(arguments: ImageOrientation.allCases)
    func orientationRoundTripsThroughAnEXIFChunk(_ orientation: ImageOrientation) throws {
        let still = try coder.decode(Fixtures.data("webp/lossy-opaque.webp")).with(orientation: orientation)
        let stillData = try coder.encode(still, as: .webp)
        #expect(try coder.decode(stillData).orientation == orientation)
        let animation = try coder.decode(Fixtures.data("webp/animated.webp")).with(orientation: orientation)
        let decoded = try coder.decode(coder.encode(animation, as: .webp, options: ImageEncodingOptions(lossless: true)))
        #expect(decoded.orientation == orientation)
        #expect(decoded.frames.count == 3 && decoded.loopCount == 2)
    }

    @Test func encodingToAnotherFormatThrowsEncodingFailed() throws {
        let image = Image(pixels: PixelBuffer(width: 2, height: 2, fill: .white))
        #expect(codingError { try coder.encode(image, as: .png) }?.code == .encodingFailed)
        let tooWide = Image(pixels: PixelBuffer(width: 16384, height: 1, fill: .white))
        #expect(codingError { try coder.encode(tooWide, as: .webp) }?.code == .encodingFailed)
    }

    // MARK: Helpers

    private func expected(_ name: String) throws -> PixelBuffer {
        try Fixtures.expectedPixels("webp/\(name).rgba", width: Self.width, height: Self.height)
    }

    private func expectedAnimationCanvases() throws -> [PixelBuffer] {
        let bytes = try [UInt8](Fixtures.data("webp/animated.rgba"))
        let frameBytes = Self.width * Self.height * 4
        try #require(bytes.count == 3 * frameBytes)
        return (0..<3).map { index in
            PixelBuffer(width: Self.width, height: Self.height, hasAlpha: true, bytes: Array(bytes[index * frameBytes..<(index + 1) * frameBytes]))
        }
    }
}

/// The `ImageCodingError` `body` throws, or `nil` when it throws nothing (or something else).
/// A complete (consistent RIFF size) WebP file holding only a VP8X header with the given canvas size.
private func vp8xHeaderOnly(width: Int, height: Int, flags: UInt8 = 0) -> Data {
    func uint24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
    let chunk: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0, flags, 0, 0, 0] + uint24(width - 1) + uint24(height - 1)
    return Data(Array("RIFF".utf8) + [UInt8(4 + chunk.count), 0, 0, 0] + Array("WEBP".utf8) + chunk)
}
