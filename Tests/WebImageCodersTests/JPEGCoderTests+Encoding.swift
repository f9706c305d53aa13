import Foundation
import Testing
@testable import WebImageCoders

/// Encoding through libjpeg-turbo and decoding the result back.
extension JPEGCoderTests {
    static let pattern = PixelBuffer.samplePattern(width: 160, height: 120)

    private func roundTrip(_ pixels: PixelBuffer, quality: Double) throws -> (data: Data, pixels: PixelBuffer) {
        let data = try coder.encode(Image(pixels: pixels), as: .jpeg, options: ImageEncodingOptions(quality: quality))
        return (data, try coder.decode(data).pixels)
    }

    @Test func roundTripAtQualityNinetyKeepsPSNRAboveThirtyDecibels() throws {
        let (data, decoded) = try roundTrip(Self.pattern, quality: 0.9)
        #expect(ImageFormat(detecting: data) == .jpeg)
        #expect(decoded.size == Self.pattern.size && !decoded.hasAlpha)
        #expect(psnr(decoded, Self.pattern) >= 30) // measured 38.7 dB, 6.6 KB for 160×120
    }

    @Test func theProgressiveOptionWritesAProgressiveJPEGThatDecodesTheSame() throws {
        let options = ImageEncodingOptions(quality: 0.9, progressive: true)
        let progressive = try coder.encode(Image(pixels: Self.pattern), as: .jpeg, options: options)
        let baseline = try coder.encode(Image(pixels: Self.pattern), as: .jpeg, options: ImageEncodingOptions(quality: 0.9))
        #expect(try coder.info(of: progressive).isProgressive)
        #expect(try !coder.info(of: baseline).isProgressive)
        #expect(psnr(try coder.decode(progressive).pixels, Self.pattern) >= 30)
    }

    @Test func higherQualityGivesHigherPSNRAndBiggerFiles() throws {
        let results = try [0.3, 0.6, 0.85, 0.95].map { try roundTrip(Self.pattern, quality: $0) }
        let psnrs = results.map { psnr($0.pixels, Self.pattern) }
        let sizes = results.map(\.data.count)
        // measured 32.9 / 34.2 / 36.0 / 42.6 dB and 1.1 / 1.8 / 3.9 / 10.0 KB
        #expect(zip(psnrs, psnrs.dropFirst()).allSatisfy { $0 < $1 }, "\(psnrs)")
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 < $1 }, "\(sizes)")
    }

    @Test func chromaIsSubsampledBelowQualityNinetyAndFullFromNinety() throws {
        let image = Image(pixels: Self.pattern)
        let low = try coder.encode(image, as: .jpeg, options: ImageEncodingOptions(quality: 0.89))
        let high = try coder.encode(image, as: .jpeg, options: ImageEncodingOptions(quality: 0.9))
        #expect(samplingFactors(of: low) == [0x22, 0x11, 0x11]) // 4:2:0
        #expect(samplingFactors(of: high) == [0x11, 0x11, 0x11]) // 4:4:4
    }

    @Test(arguments: ImageOrientation.allCases)
    func orientationSurvivesEncodeAndDecode(orientation: ImageOrientation) throws {
        let image = Image(pixels: PixelBuffer.samplePattern(width: 40, height: 24), orientation: orientation)
        let data = try coder.encode(image, as: .jpeg)
        // .up writes no EXIF segment at all; the others write a minimal one.
        #expect(ExifOrientationReader.orientation(inJPEG: data) == (orientation == .up ? nil : orientation))
        let decoded = try coder.decode(data)
        #expect(decoded.orientation == orientation)
        #expect(decoded.pixelSize == PixelSize(width: 40, height: 24))
    }

    @Test func alphaIsIgnoredAndColoursUnderTransparencyAreKept() throws {
        let translucent = PixelBuffer.samplePattern(width: 64, height: 48, alpha: true)
        let opaque = PixelBuffer.samplePattern(width: 64, height: 48)
        let (_, decoded) = try roundTrip(translucent, quality: 0.9)
        #expect(!decoded.hasAlpha && decoded.isOpaque)
        #expect(psnr(decoded, opaque) >= 30) // measured 38.8 dB
    }

    @Test func onlyTheFirstFrameIsEncoded() throws {
        let red = PixelBuffer(width: 16, height: 16, fill: RGBA(red: 255, green: 0, blue: 0))
        let blue = PixelBuffer(width: 16, height: 16, fill: RGBA(red: 0, green: 0, blue: 255))
        let animation = Image(frames: [ImageFrame(pixels: red, duration: .milliseconds(100)), ImageFrame(pixels: blue)])
        let decoded = try coder.decode(coder.encode(animation, as: .jpeg))
        #expect(!decoded.isAnimated)
        #expect(maxChannelDifference(decoded.pixels, red) <= 2)
    }

    @Test func encodingToAnotherFormatThrowsUnsupportedFormat() {
        let error = #expect(throws: ImageCodingError.self) {
            try coder.encode(Image(pixels: Self.pattern), as: .png)
        }
        #expect(error?.code == .unsupportedFormat)
    }

    @Test func imagesLargerThanJPEGsLimitThrowEncodingFailed() {
        let wide = PixelBuffer(width: 70000, height: 1, fill: .white)
        let error = #expect(throws: ImageCodingError.self) { try coder.encode(Image(pixels: wide), as: .jpeg) }
        #expect(error?.code == .encodingFailed)
    }
}

/// The sampling factor byte (high nibble horizontal, low vertical) of each component in the SOF0 header.
private func samplingFactors(of data: Data) -> [UInt8] {
    let bytes = [UInt8](data)
    var offset = 2
    while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
        let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        if bytes[offset + 1] == 0xC0, offset + 10 <= bytes.count {
            let count = Int(bytes[offset + 9])
            return (0..<count).compactMap { index in
                let position = offset + 11 + 3 * index
                return position < bytes.count ? bytes[position] : nil
            }
        }
        offset += 2 + length
    }
    return []
}
