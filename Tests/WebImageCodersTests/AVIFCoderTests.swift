import Foundation
import Testing
@testable import WebImageCoders

/// AVIFCoder against files made by vips (libheif + aom) and avifenc, whose expected pixels are
/// avifdec's decode (see scripts/fixtures/make-avif-fixtures.py), and against its own round trips.
@Suite struct AVIFCoderTests {
    let coder = AVIFCoder()

    /// avifdec and we both convert with libavif 0.11.1, but the tolerance allows for YUV→RGB rounding
    /// differences (libyuv vs the built-in path) of up to 2 per channel.
    static let tolerance = 2

    // MARK: Colour code points (nclx)

    /// The nclx fixtures are 8×8 lossless AVIFs (identity matrix, so the RGB is exact) of four 4×4 blocks with these
    /// values, left to right and top to bottom, tagged with code points instead of a profile
    /// (scripts/fixtures/make-avif-fixtures.py).
    static let blockValues: [(Int, Int, Int)] = [(200, 100, 50), (50, 160, 220), (128, 128, 128), (250, 20, 20)]

    /// The colour of each block, within `tolerance` of `expected`.
    func expectBlocks(_ image: Image, _ expected: [(Int, Int, Int)], tolerance: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, (x, y)) in [(1, 1), (5, 1), (1, 5), (5, 5)].enumerated() {
            let pixel = image.pixels[x, y], (red, green, blue) = expected[index]
            let difference = max(abs(Int(pixel.red) - red), abs(Int(pixel.green) - green), abs(Int(pixel.blue) - blue))
            #expect(difference <= tolerance, "block \(index): \(pixel), expected \((red, green, blue))", sourceLocation: sourceLocation)
        }
    }

    /// Expected: the values converted to sRGB with H.273's primaries (D65), sRGB's tone curve on both sides and
    /// relative colorimetry, clipped; worked out by hand (3×3 matrices), as Chromium shows such files.
    @Test func nclxDisplayP3IsConvertedToSRGB() throws {
        let image = try coder.decode(Fixtures.data("avif/nclx-p3.avif"))
        expectBlocks(image, [(215, 93, 31), (0, 163, 226), (128, 128, 128), (255, 0, 0)], tolerance: 2)
        #expect(image.iccProfile == nil)
    }

    @Test func nclxBT2020IsConvertedToSRGB() throws {
        let image = try coder.decode(Fixtures.data("avif/nclx-bt2020.avif"))
        expectBlocks(image, [(241, 76, 29), (0, 167, 227), (128, 128, 128), (255, 0, 0)], tolerance: 2)
    }

    /// PQ needs tone mapping, which this library does not do: the values are left as they are.
    @Test func nclxWithAnHDRTransferIsLeftAsItIs() throws {
        let image = try coder.decode(Fixtures.data("avif/nclx-p3-pq.avif"))
        expectBlocks(image, Self.blockValues, tolerance: 0)
    }

    @Test func keepsColorProfileKeepsNCLXValuesWithAProfileMadeFromTheCodePoints() throws {
        let data = try Fixtures.data("avif/nclx-p3.avif")
        let kept = try coder.decode(data, options: ImageDecodingOptions(keepsColorProfile: true))
        expectBlocks(kept, Self.blockValues, tolerance: 0)
        let profile = try #require(kept.iccProfile)
        #expect(LittleCMS.space(of: profile) == .rgb)
        let converted = ColorManagement.finish(Image(pixels: kept.pixels), profile: profile, options: ImageDecodingOptions())
        #expect(maxChannelDifference(converted.pixels, try coder.decode(data).pixels) == 0)
    }

    @Test func codePointsOfSRGBOrUnspecifiedOrHDROrUnknownMakeNoProfile() {
        for (primaries, transfer) in [(1, 13), (1, 1), (2, 2), (1, 6), (12, 16), (9, 18), (99, 13), (12, 99)] {
            #expect(CICPColor(primaries: UInt16(primaries), transfer: UInt16(transfer)).iccProfile() == nil, "\(primaries)/\(transfer)")
        }
        for (primaries, transfer) in [(12, 13), (9, 1), (1, 4), (1, 8), (11, 13), (5, 6)] {
            #expect(CICPColor(primaries: UInt16(primaries), transfer: UInt16(transfer)).iccProfile() != nil, "\(primaries)/\(transfer)")
        }
    }

    // MARK: Decoding fixtures

    @Test func decodesOpaqueEightBitFileLikeAvifdec() throws {
        let image = try coder.decode(Fixtures.data("avif/opaque.avif"))
        let expected = try Fixtures.expectedPixels("avif/opaque.rgba", width: 48, height: 32)
        #expect(image.format == .avif)
        #expect(image.pixelSize == PixelSize(width: 48, height: 32))
        #expect(!image.hasAlpha)
        #expect(image.pixels.isOpaque)
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
        #expect(image.orientation == .up)
        #expect(image.frames.count == 1 && image.frames[0].duration == .zero)
    }

    @Test func decodesAlphaFileAsStraightAlphaLikeAvifdec() throws {
        let image = try coder.decode(Fixtures.data("avif/alpha.avif"))
        let expected = try Fixtures.expectedPixels("avif/alpha.rgba", width: 48, height: 32)
        #expect(image.hasAlpha)
        #expect(!image.pixels.isOpaque)
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
    }

    @Test func decodesTenBitFileToEightBitsLikeAvifdec() throws {
        let image = try coder.decode(Fixtures.data("avif/deep10.avif"))
        let expected = try Fixtures.expectedPixels("avif/deep10.rgba", width: 48, height: 32)
        #expect(!image.hasAlpha)
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
    }

    @Test func decodesEverySequenceFrameWithItsDurationAndLoopsForever() throws {
        let image = try coder.decode(Fixtures.data("avif/sequence.avif"))
        #expect(image.frames.count == 3)
        #expect(image.frames.map(\.duration) == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        #expect(image.loopCount == 0)
        #expect(image.frames[0].pixels != image.frames[1].pixels && image.frames[1].pixels != image.frames[2].pixels)
    }

    @Test func firstFrameOnlyDecodesOneStillFrameOfASequence() throws {
        let image = try coder.decode(Fixtures.data("avif/sequence.avif"), options: ImageDecodingOptions(firstFrameOnly: true))
        let all = try coder.decode(Fixtures.data("avif/sequence.avif"))
        #expect(image.frames.count == 1)
        #expect(image.frames[0].duration == .zero)
        #expect(image.pixels == all.pixels)
    }

    @Test func sequenceOverTheAnimationMemoryLimitThrowsAnimationTooLarge() throws {
        let data = try Fixtures.data("avif/sequence.avif")
        let limit = 32 * 24 * 4 * 3 - 1
        #expect(throws: ImageCodingError.self) {
            try coder.decode(data, options: ImageDecodingOptions(maximumAnimationByteCount: limit))
        }
        #expect(code { try coder.decode(data, options: ImageDecodingOptions(maximumAnimationByteCount: limit)) }
            == .animationTooLarge)
        let exact = try coder.decode(data, options: ImageDecodingOptions(maximumAnimationByteCount: limit + 1))
        #expect(exact.frames.count == 3)
    }

    @Test func sequenceOverTheLimitDecodesItsFirstFrameWhenAsked() throws {
        let options = ImageDecodingOptions(maximumAnimationByteCount: 1, firstFrameWhenAnimationTooLarge: true)
        let image = try coder.decode(Fixtures.data("avif/sequence.avif"), options: options)
        #expect(image.frames.count == 1)
    }

    // MARK: Orientation

    @Test func irotAngle1WithImirMode1IsReportedAsRightMirrored() throws {
        // Turn 90° anti-clockwise, then exchange left and right: the transverse, EXIF 7.
        let image = try coder.decode(Fixtures.data("avif/rotated.avif"))
        #expect(image.orientation == .rightMirrored)
        #expect(image.pixelSize == PixelSize(width: 24, height: 16))
    }

    @Test func exifOrientationIsUsedWhenThereIsNoIrotOrImir() throws {
        let image = try coder.decode(Fixtures.data("avif/exif6.avif"))
        #expect(image.orientation == .right)
    }

    @Test func applyOrientationTurnsThePixelsUpright() throws {
        let image = try coder.decode(Fixtures.data("avif/rotated.avif"), options: ImageDecodingOptions(applyOrientation: true))
        #expect(image.orientation == .up)
        #expect(image.pixelSize == PixelSize(width: 16, height: 24))
    }

    @Test func everyOrientationRoundTripsThroughIrotAndImir() throws {
        let source = Self.gradient(width: 16, height: 8)
        for orientation in ImageOrientation.allCases {
            let data = try coder.encode(Image(pixels: source, orientation: orientation), as: .avif)
            #expect(try coder.decode(data).orientation == orientation, "\(orientation)")
        }
    }

    @Test func heifTransformTableIsTheInverseOfTheDecodingMapping() {
        for orientation in ImageOrientation.allCases {
            let transform = orientation.heifTransform
            #expect(ImageOrientation(heifRotation: transform.rotation, mirror: transform.mirror) == orientation)
        }
        // Equivalent spellings decode to the same orientation (180° + top/bottom = left/right mirror).
        #expect(ImageOrientation(heifRotation: 2, mirror: 0) == .upMirrored)
        #expect(ImageOrientation(heifRotation: 3, mirror: 1) == .leftMirrored)
    }

    // MARK: Encoding

    @Test func lossyRoundTripAtQuality09KeepsPSNRAtLeast30dB() throws {
        let source = Self.gradient(width: 64, height: 48)
        let data = try coder.encode(Image(pixels: source), as: .avif, options: ImageEncodingOptions(quality: 0.9))
        let decoded = try coder.decode(data)
        #expect(ImageFormat(detecting: data) == .avif)
        #expect(!decoded.hasAlpha)
        #expect(psnr(decoded.pixels, source) >= 30) // measured 37.7 dB (all four channels), 709 bytes
    }

    @Test func lowerQualityMakesSmallerFiles() throws {
        let image = Image(pixels: Self.gradient(width: 64, height: 48))
        let high = try coder.encode(image, as: .avif, options: ImageEncodingOptions(quality: 0.9))
        let low = try coder.encode(image, as: .avif, options: ImageEncodingOptions(quality: 0.3))
        #expect(low.count < high.count)
        #expect(AVIFCoder.quantizer(forQuality: 0.9) == 6)
        #expect(AVIFCoder.quantizer(forQuality: 0) == 63 && AVIFCoder.quantizer(forQuality: 1) == 0)
    }

    @Test func losslessRoundTripIsExactIncludingAlpha() throws {
        let source = Self.gradient(width: 64, height: 48, alpha: true)
        let data = try coder.encode(Image(pixels: source), as: .avif, options: ImageEncodingOptions(lossless: true))
        let decoded = try coder.decode(data)
        #expect(decoded.hasAlpha)
        #expect(decoded.pixels.bytes == source.bytes)
    }

    @Test func sequenceRoundTripKeepsFramesAndDurations() throws {
        let durations: [Duration] = [.milliseconds(100), .milliseconds(250), .milliseconds(40)]
        let frames = (0..<3).map { ImageFrame(pixels: Self.gradient(width: 32, height: 24, shift: $0 * 25), duration: durations[$0]) }
        let data = try coder.encode(Image(frames: frames), as: .avif, options: ImageEncodingOptions(quality: 0.9))
        let decoded = try coder.decode(data)
        #expect(decoded.frames.count == 3)
        #expect(decoded.frames.map(\.duration) == durations)
        for (got, sent) in zip(decoded.frames, frames) {
            #expect(psnr(got.pixels, sent.pixels) >= 30) // measured 38.6, 38.3, 38.3 dB
        }
    }

    @Test func firstFrameOnlyEncodesAStillImage() throws {
        let frames = (0..<2).map { ImageFrame(pixels: Self.gradient(width: 16, height: 16, shift: $0 * 50), duration: .milliseconds(50)) }
        let data = try coder.encode(Image(frames: frames), as: .avif, options: ImageEncodingOptions(firstFrameOnly: true))
        let decoded = try coder.decode(data)
        #expect(decoded.frames.count == 1)
        #expect(psnr(decoded.pixels, frames[0].pixels) >= 30)
    }

    @Test func encodingToAnotherFormatThrowsUnsupportedFormat() {
        let image = Image(pixels: Self.gradient(width: 4, height: 4))
        #expect(code { try coder.encode(image, as: .png) } == .unsupportedFormat)
        #expect(!coder.canEncode(to: .webp) && coder.canEncode(to: .avif))
    }

    // MARK: Bad input

    @Test func canDecodeRecognisesOnlyAVIF() throws {
        #expect(coder.canDecode(try Fixtures.data("avif/opaque.avif")))
        #expect(coder.canDecode(try Fixtures.data("avif/sequence.avif")))
        #expect(!coder.canDecode(Self.ftyp(brand: "heic") + Data(count: 32)))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])))
    }

    @Test func fileCutAtAnyPointThrowsTruncatedData() throws {
        for name in ["opaque", "alpha", "deep10", "sequence", "rotated", "exif6"] {
            let data = try Fixtures.data("avif/\(name).avif")
            for cut in truncations(of: data) {
                #expect(code { try coder.decode(cut) } == .truncatedData, "\(name) cut at \(cut.count)")
            }
        }
    }

    @Test func validFtypFollowedByRandomBytesThrows() {
        for seed in 1...20 as ClosedRange<UInt64> {
            let data = Self.ftyp(brand: "avif") + randomBytes(count: 600, seed: seed)
            #expect(throws: ImageCodingError.self) { try coder.decode(data) }
        }
        // Well-formed boxes, but no `meta` box and so no image.
        let empty = Self.ftyp(brand: "avif") + Data([0, 0, 0, 8]) + Data("free".utf8)
        // libavif 0.11 reads a file that ends before any `meta` box as cut short.
        #expect(code { try coder.decode(empty) } == .truncatedData)
    }

    @Test func nonAVIFDataThrowsUnsupportedFormat() {
        #expect(code { try coder.decode(Self.ftyp(brand: "heic") + Data([0, 0, 0, 8]) + Data("free".utf8)) } == .unsupportedFormat)
        #expect(code { try coder.decode(Data(repeating: 0x41, count: 100)) } == .unsupportedFormat)
    }

    @Test func corruptAV1PayloadThrowsCorruptData() throws {
        var data = try Fixtures.data("avif/opaque.avif")
        let mdat = try #require(data.range(of: Data("mdat".utf8)))
        for index in mdat.upperBound..<(mdat.upperBound + 24) { data[index] = 0xFF }
        // aom reports a broken bitstream without writing to stderr (dav1d logs a line; see LibAVIF).
        let quiet = AVIFCoder(configuration: .init(decodingCodec: .aom))
        #expect(code { try quiet.decode(data) } == .corruptData)
    }

    @Test func ispePatchedToClaim60000SquaredThrowsImageTooLargeBeforeDecoding() throws {
        var data = try Fixtures.data("avif/opaque.avif")
        let ispe = try #require(data.range(of: Data("ispe".utf8)))
        let size = ispe.upperBound + 4 // after version and flags
        data.replaceSubrange(size..<(size + 8), with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60]) // 60000 × 60000
        #expect(code { try coder.decode(data) } == .imageTooLarge)
        let unlimited = ImageDecodingOptions(maximumPixelCount: .max)
        #expect(code { try coder.decode(data, options: unlimited) } == .imageTooLarge) // over libavif's own limit
    }

    @Test func imageOverALoweredMaximumPixelCountThrowsImageTooLarge() throws {
        let data = try Fixtures.data("avif/opaque.avif")
        #expect(code { try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: 48 * 32 - 1)) } == .imageTooLarge)
        #expect(try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: 48 * 32)).pixelSize.width == 48)
    }

    // MARK: Helpers

    /// The error code `body` throws, or `nil` when it does not throw an ImageCodingError.
    private func code(_ body: () throws -> Any) -> ImageCodingError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as ImageCodingError {
            return error.code
        } catch {
            return nil
        }
    }

    /// A 20-byte `ftyp` box with one major and one compatible brand.
    private static func ftyp(brand: String) -> Data {
        Data([0, 0, 0, 20]) + Data("ftyp".utf8) + Data(brand.utf8) + Data([0, 0, 0, 0]) + Data(brand.utf8)
    }

    /// Smooth colour gradients with a checkerboard of soft edges; optionally an alpha ramp from 0 to 255.
    /// `shift` (0…50) brightens red and blue without wrapping round, so 4:2:0 stays free of extreme chroma edges.
    private static func gradient(width: Int, height: Int, alpha: Bool = false, shift: Int = 0) -> PixelBuffer {
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let edge = (x / 8 + y / 8) % 2 == 0 ? 0 : 40
                bytes += [
                    UInt8(x * 200 / max(1, width - 1) + shift),
                    UInt8(y * 255 / max(1, height - 1)),
                    UInt8(128 + edge + shift),
                    alpha ? UInt8((x + y) * 255 / max(1, width + height - 2)) : 255,
                ]
            }
        }
        return PixelBuffer(width: width, height: height, hasAlpha: alpha, bytes: bytes)
    }
}
