import Foundation
import Testing
@testable import WebImageCoders

/// JXLCoder against files made by cjxl 0.7, whose expected pixels are djxl's decode (see
/// scripts/fixtures/make-heic-jxl-fixtures.py), and against its own round trips.
@Suite struct JXLCoderTests {
    let coder = JXLCoder()

    /// djxl and we both decode with libjxl 0.7 to 8 bits; the tolerance allows for rounding differences.
    static let tolerance = 2

    @Test func decodesLossyFileLikeDjxl() throws {
        let image = try coder.decode(Fixtures.data("jxl/opaque.jxl"))
        let expected = try Fixtures.expectedPixels("jxl/opaque.rgba", width: 48, height: 32)
        #expect(image.format == .jpegXL)
        #expect(image.pixelSize == PixelSize(width: 48, height: 32))
        #expect(!image.hasAlpha)
        #expect(image.pixels.isOpaque)
        #expect(maxChannelDifference(image.pixels, expected) <= Self.tolerance)
        #expect(image.orientation == .up && image.frames.count == 1 && image.frames[0].duration == .zero)
    }

    @Test func decodesLosslessAlphaFileExactlyLikeDjxl() throws {
        let image = try coder.decode(Fixtures.data("jxl/alpha.jxl"))
        let expected = try Fixtures.expectedPixels("jxl/alpha.rgba", width: 48, height: 32)
        #expect(image.hasAlpha)
        #expect(firstDifference(image.pixels, expected) == nil)
    }

    @Test func codestreamOrientationIsReportedWithTheStoredPixelsAndTurnsUprightLikeDjxl() throws {
        let data = try Fixtures.data("jxl/exif6.jxl")
        let stored = try coder.decode(data)
        #expect(stored.orientation == .right)
        #expect(stored.pixelSize == PixelSize(width: 48, height: 32))
        let upright = try coder.decode(data, options: ImageDecodingOptions(applyOrientation: true))
        let expected = try Fixtures.expectedPixels("jxl/exif6.rgba", width: 32, height: 48) // djxl turns it
        #expect(upright.pixelSize == PixelSize(width: 32, height: 48))
        #expect(maxChannelDifference(upright.pixels, expected) <= Self.tolerance)
    }

    @Test func decodesEveryAnimationFrameWithItsDurationAndTheFilesLoopCount() throws {
        let image = try coder.decode(Fixtures.data("jxl/animation.jxl"))
        #expect(image.frames.count == 3)
        #expect(image.frames.map(\.duration) == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        #expect(image.loopCount == 0) // cjxl 0.7 drops the APNG's play count; the round trip below checks a real one
        #expect(image.frames[0].pixels != image.frames[1].pixels && image.frames[1].pixels != image.frames[2].pixels)
    }

    @Test func firstFrameOnlyDecodesOneStillFrameOfAnAnimation() throws {
        let data = try Fixtures.data("jxl/animation.jxl")
        let image = try coder.decode(data, options: ImageDecodingOptions(firstFrameOnly: true))
        let all = try coder.decode(data)
        #expect(image.frames.count == 1 && image.frames[0].duration == .zero)
        #expect(image.pixels == all.pixels)
    }

    @Test func animationOverTheMemoryLimitThrowsOrDecodesItsFirstFrameWhenAsked() throws {
        let data = try Fixtures.data("jxl/animation.jxl")
        let limit = 48 * 32 * 4 * 3 - 1
        #expect(codingError { try coder.decode(data, options: ImageDecodingOptions(maximumAnimationByteCount: limit)) }?.code
            == .animationTooLarge)
        #expect(try coder.decode(data, options: ImageDecodingOptions(maximumAnimationByteCount: limit + 1)).frames.count == 3)
        let first = try coder.decode(data, options: ImageDecodingOptions(maximumAnimationByteCount: limit,
                                                                           firstFrameWhenAnimationTooLarge: true))
        #expect(first.frames.count == 1)
    }

    @Test func imageOverThePixelLimitThrowsImageTooLarge() throws {
        let data = try Fixtures.data("jxl/opaque.jxl")
        #expect(codingError { try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: 48 * 32 - 1)) }?.code
            == .imageTooLarge)
        #expect(throws: Never.self) { try coder.decode(data, options: ImageDecodingOptions(maximumPixelCount: 48 * 32)) }
    }

    /// A bare codestream whose size header declares 100,000 × 100,000 pixels and nothing else.
    @Test func hostileSizeHeaderThrowsImageTooLargeBeforeAllocating() {
        var bits = BitWriter()
        bits.write(0xFF0A, count: 16, bigEndian: true) // signature
        bits.write(0, count: 1) // not small
        bits.write(2, count: 2); bits.write(99_999, count: 18) // height − 1 in 18 bits
        bits.write(0, count: 3) // no ratio: the width follows
        bits.write(2, count: 2); bits.write(99_999, count: 18) // width − 1
        bits.write(1, count: 1) // image metadata: all default
        let data = Data(bits.bytes + [UInt8](repeating: 0, count: 64))
        #expect(ImageFormat(detecting: data) == .jpegXL)
        let error = codingError { try coder.decode(data) }
        #expect(error?.code == .imageTooLarge, "\(String(describing: error))")
    }

    @Test func everyTruncationThrowsATypedErrorWhenStrict() throws {
        let strict = ImageDecodingOptions(strict: true)
        for name in ["opaque", "alpha", "animation", "exif6"] {
            let data = try Fixtures.data("jxl/\(name).jxl")
            for cut in truncations(of: data) {
                #expect(codingError { try coder.decode(cut, options: strict) } != nil, "\(name) cut at \(cut.count)")
                _ = try? coder.decode(cut) // a lenient decode may keep an animation's first frames (DamagedJXLTests)
            }
        }
        let cut = try Fixtures.data("jxl/opaque.jxl").dropLast(40)
        #expect(codingError { try coder.decode(cut, options: strict) }?.code == .truncatedData)
    }

    // MARK: Encoding

    @Test func losslessEncodingRoundTripsRGBAExactly() throws {
        for alpha in [false, true] {
            let pixels = PixelBuffer.samplePattern(width: 40, height: 30, alpha: alpha)
            let data = try coder.encode(Image(pixels: pixels), as: .jpegXL, options: ImageEncodingOptions(lossless: true))
            #expect(ImageFormat(detecting: data) == .jpegXL)
            let decoded = try coder.decode(data)
            #expect(decoded.hasAlpha == alpha)
            #expect(firstDifference(decoded.pixels, pixels) == nil)
        }
    }

    @Test func lossyEncodingIsCloseAndSmallerThanLossless() throws {
        let pixels = PixelBuffer.samplePattern(width: 64, height: 48)
        let lossy = try coder.encode(Image(pixels: pixels), as: .jpegXL, options: ImageEncodingOptions(quality: 0.9))
        let lossless = try coder.encode(Image(pixels: pixels), as: .jpegXL, options: ImageEncodingOptions(lossless: true))
        #expect(lossy.count < lossless.count)
        #expect(psnr(try coder.decode(lossy).pixels, pixels) > 30)
        // djxl reads what we write.
        let low = try coder.encode(Image(pixels: pixels), as: .jpegXL, options: ImageEncodingOptions(quality: 0.2))
        #expect(low.count < lossy.count)
    }

    @Test func qualityMapsToDistanceAsCjxl() {
        #expect(JXLCoder.distance(forQuality: 0.9) == 1.0)
        #expect(abs(JXLCoder.distance(forQuality: 0.5) - 4.6) < 0.0001)
        #expect(JXLCoder.distance(forQuality: 1) == 0.1)
        #expect(JXLCoder.distance(forQuality: 0) == 25)
    }

    @Test func animationOrientationAndLoopCountSurviveARoundTrip() throws {
        let frames = (0..<3).map { index in
            ImageFrame(pixels: .samplePattern(width: 24, height: 16, alpha: index == 1), duration: .milliseconds(50 * (index + 1)))
        }
        let image = Image(frames: frames, format: .png, orientation: .left, loopCount: 3)
        let data = try coder.encode(image, as: .jpegXL, options: ImageEncodingOptions(lossless: true))
        let decoded = try coder.decode(data)
        #expect(decoded.frames.count == 3)
        #expect(decoded.frames.map(\.duration) == frames.map(\.duration))
        #expect(decoded.loopCount == 3)
        #expect(decoded.orientation == .left)
        #expect(decoded.frames[2].pixels.bytes == frames[2].pixels.bytes)
    }

    @Test func encodingAnotherFormatThrowsUnsupported() {
        #expect(codingError { try coder.encode(Image(pixels: .samplePattern(width: 2, height: 2)), as: .png) }?.code
            == .unsupportedFormat)
        #expect(coder.canEncode(to: .jpegXL) && !coder.canEncode(to: .heic))
    }
}

/// Writes bits least significant first, as the JPEG XL codestream does.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 0

    mutating func write(_ value: Int, count: Int, bigEndian: Bool = false) {
        if bigEndian { // whole bytes, most significant first (the signature)
            for shift in stride(from: count - 8, through: 0, by: -8) { write(value >> shift & 0xFF, count: 8) }
            return
        }
        for bit in 0..<count {
            if used % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8((value >> bit) & 1) << (used % 8)
            used += 1
        }
    }
}
