import Foundation
import Testing
@testable import WebImageCoders

/// Scale-down and thumbnail decodes that stream (issue 15): libjpeg's rows at an `M`/8 scale and libpng's
/// rows are resampled band by band, never holding the full-size image, and give the pixels of the
/// non-streaming path.
@Suite struct StreamingDecodeTests {
    static let photo = Image(pixels: .samplePattern(width: 800, height: 600, seed: 5))

    static func jpeg(_ image: Image = photo, quality: Double = 0.9) throws -> Data {
        try JPEGCoder().encode(image, as: .jpeg, options: ImageEncodingOptions(quality: quality))
    }

    // MARK: JPEG

    @Test func theScaleNumeratorIsTheSmallestEighthThatCoversTheTarget() {
        let size = PixelSize(width: 8192, height: 5461)
        #expect(JPEGCoder.scaleNumerator(for: size, covering: PixelSize(width: 4857, height: 3238)) == 5) // 5120×3414
        #expect(JPEGCoder.scaleNumerator(for: size, covering: PixelSize(width: 256, height: 171)) == 1)
        #expect(JPEGCoder.scaleNumerator(for: size, covering: PixelSize(width: 1025, height: 10)) == 2)
        #expect(JPEGCoder.scaleNumerator(for: size, covering: PixelSize(width: 8000, height: 5000)) == 8)
        #expect(JPEGCoder.scaledSize(of: size, numerator: 5) == PixelSize(width: 5120, height: 3414)) // rounded up, as libjpeg
    }

    /// Where the chosen scale is 1/2 or 8/8, the old path (libjpeg's one-shot decode at that scale, then the
    /// resampler over the whole buffer) is available independently, and the streamed result must equal it.
    @Test(arguments: [
        (PixelSize(width: 380, height: 285), JPEGCoder.DCTScale.half),   // 4/8 covers it
        (PixelSize(width: 720, height: 540), JPEGCoder.DCTScale.full),   // only 8/8 covers it
        (PixelSize(width: 90, height: 60), JPEGCoder.DCTScale.eighth),   // 1/8, then resampled
    ])
    func jpegStreamingScaleDownEqualsTheOneShotDecodeAtThatScaleResampled(target: PixelSize, scale: JPEGCoder.DCTScale) throws {
        let data = try Self.jpeg()
        let options = ImageDecodingOptions(thumbnailPixelSize: target, thumbnailMode: .stretch)
        let streamed = try JPEGCoder().decode(data, options: options)
        #expect(streamed.pixelSize == target)
        let decoded = try JPEGCoder().decode(data, options: ImageDecodingOptions(), scale: scale)
        let reference = Resampler.resize(decoded.pixels, to: target)
        #expect(maxChannelDifference(streamed.pixels, reference) <= 1)
    }

    /// At a scale such as 5/8 libjpeg's scaled IDCT differs from a full decode followed by a resample (it
    /// filters in the DCT domain), so the pixel-exact reference is libjpeg's own 5/8 decode read whole and
    /// resampled over the whole buffer; the full-size path must still agree closely.
    @Test func jpegStreamingAtFiveEighthsEqualsTheWholeFiveEighthsDecodeResampled() throws {
        let data = try Self.jpeg()
        let target = PixelSize(width: 470, height: 352) // 5/8 = 500×375 covers it, 4/8 does not
        let streamed = try JPEGCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: target, thumbnailMode: .stretch))
        let whole = try data.withUnsafeBytes { bytes in
            let stream = try LibJPEG.Stream(bytes, scaleNumerator: 5, maximumWorkingMemory: 0)
            #expect(stream.outputSize == PixelSize(width: 500, height: 375))
            return try PixelBuffer(width: 500, height: 375, hasAlpha: false) { (output: UnsafeMutableBufferPointer<UInt8>) throws(ImageCodingError) in
                var row = 0
                while row < 375 {
                    row += try stream.read(into: UnsafeMutableBufferPointer(rebasing: output[(row * 2000)...]), maximumRows: 375 - row)
                }
                try stream.finish()
            }
        }
        #expect(maxChannelDifference(streamed.pixels, Resampler.resize(whole, to: target)) <= 1)
        let fromFullSize = Resampler.resize(try JPEGCoder().decode(data).pixels, to: target)
        #expect(psnr(streamed.pixels, fromFullSize) > 30)
    }

    /// Every row of a `scaleNumerator`/8 stream, read whole.
    static func streamPixels(_ data: Data, scaleNumerator: Int, vectorIDCT: Bool) throws -> PixelBuffer {
        try data.withUnsafeBytes { bytes in
            let stream = try LibJPEG.Stream(bytes, scaleNumerator: scaleNumerator, maximumWorkingMemory: 0, vectorIDCT: vectorIDCT)
            let size = stream.outputSize
            return try PixelBuffer(width: size.width, height: size.height, hasAlpha: false) {
                (output: UnsafeMutableBufferPointer<UInt8>) throws(ImageCodingError) in
                var row = 0
                while row < size.height {
                    let start = row * size.width * 4
                    row += try stream.read(into: UnsafeMutableBufferPointer(rebasing: output[start...]), maximumRows: size.height - row)
                }
                try stream.finish()
            }
        }
    }

    /// Our vector IDCT for the scales libjpeg-turbo has no SIMD for computes libjpeg's sums in float instead
    /// of 13-bit fixed point: each decoded sample is within one level of libjpeg's own scaled decode, at
    /// every scale, for every sampling and colour model (4:2:0 chroma goes through the doubled sizes 6, 10,
    /// 12, 14). Grey and CMYK samples are the output bytes; YCbCr → RGB adds up to 1 + 1.772 levels of Y
    /// and chroma, so RGB may differ by 3, and on average by less than 0.05.
    @Test(arguments: [("jpeg/baseline-420.jpg", 3), ("jpeg/444.jpg", 3), ("jpeg/progressive.jpg", 3),
                      ("jpeg/gray.jpg", 1), ("jpeg/cmyk-adobe.jpg", 1)])
    func theVectorScaledIDCTIsWithinOneLevelOfLibjpegs(fixture: String, largestRGBDifference: Int) throws {
        let data = try Fixtures.data(fixture)
        for numerator in [3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16] {
            let ours = try Self.streamPixels(data, scaleNumerator: numerator, vectorIDCT: true)
            let libjpegs = try Self.streamPixels(data, scaleNumerator: numerator, vectorIDCT: false)
            #expect(ours.size == libjpegs.size)
            #expect(maxChannelDifference(ours, libjpegs) <= largestRGBDifference, "\(fixture) at \(numerator)/8")
            #expect(meanChannelDifference(ours, libjpegs) < 0.05, "\(fixture) at \(numerator)/8")
        }
    }

    @Test func jpegScaleDownHonoursTheByteBudget() throws { // DE-13 through the streaming path
        let data = try Self.jpeg()
        let limit = 300 * 200 * 4
        let image = try JPEGCoder().decode(data, options: ImageDecodingOptions(scaleDownLimitBytes: limit))
        #expect(image.memoryCost <= limit)
        #expect(image.pixelSize == ImageDecodingOptions(scaleDownLimitBytes: limit).targetSize(for: Self.photo.pixelSize))
    }

    @Test func jpegStreamingKeepsTheOrientationAndTurnsThePixelsUpright() throws {
        let stored = Image(pixels: .samplePattern(width: 600, height: 400, seed: 9), orientation: .right)
        let data = try Self.jpeg(stored)
        let bounds = PixelSize(width: 200, height: 300) // portrait box: the upright image is 400×600
        let kept = try JPEGCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: bounds))
        #expect(kept.orientation == .right)
        #expect(kept.pixelSize == PixelSize(width: 300, height: 200))
        let upright = try JPEGCoder().decode(data, options: ImageDecodingOptions(applyOrientation: true, thumbnailPixelSize: bounds))
        #expect(upright.orientation == .up)
        #expect(upright.pixelSize == PixelSize(width: 200, height: 300))
        #expect(upright.pixels == kept.pixels.applyingOrientation(.right))
        // 4/8 is exactly 300×200: the rows go straight into the output, as libjpeg's one-shot half-size decode.
        #expect(kept.pixels == (try JPEGCoder().decode(data, options: ImageDecodingOptions(), scale: .half)).pixels)
    }

    @Test(arguments: ["jpeg/cmyk-adobe.jpg", "jpeg/ycck.jpg", "jpeg/gray.jpg", "jpeg/progressive-large.jpg", "jpeg/restart.jpg"])
    func jpegStreamingHandlesEveryColourModelLikeTheOneShotDecode(fixture: String) throws {
        let data = try Fixtures.data(fixture)
        let full = try JPEGCoder().decode(data)
        let target = PixelSize(width: full.pixelSize.width - 1, height: full.pixelSize.height - 1) // only 8/8 covers it
        let streamed = try JPEGCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: target, thumbnailMode: .stretch))
        #expect(streamed.pixelSize == target)
        #expect(maxChannelDifference(streamed.pixels, Resampler.resize(full.pixels, to: target)) <= 1) // 8/8: the full decode
    }

    @Test func aJPEGHeaderOverThePixelLimitIsRefusedBeforeDecoding() throws {
        var data = try Self.jpeg(Image(pixels: .samplePattern(width: 64, height: 48)))
        try Self.setFrameSize(of: &data, width: 60_000, height: 60_000)
        // The 1/8 decode a 100×100 thumbnail needs is 7500×7500: over a one-megapixel limit.
        let options = ImageDecodingOptions(maximumPixelCount: 1_000_000, thumbnailPixelSize: PixelSize(width: 100, height: 100))
        #expect { try JPEGCoder().decode(data, options: options) } throws: { ($0 as? ImageCodingError)?.code == .imageTooLarge }
        let scaleDown = ImageDecodingOptions(maximumPixelCount: 1_000_000, scaleDownLimitBytes: 1 << 20)
        #expect { try JPEGCoder().decode(data, options: scaleDown) } throws: { ($0 as? ImageCodingError)?.code == .imageTooLarge }
    }

    @Test func aTruncatedJPEGFailsThroughTheStreamingPathWithoutCrashingWhenStrict() throws {
        let data = try Self.jpeg()
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 300, height: 300), strict: true)
        for cut in truncations(of: data, samples: 24) {
            #expect(throws: ImageCodingError.self) { try JPEGCoder().decode(cut, options: options) }
        }
    }

    /// Rewrites the width and height of the first SOF segment.
    static func setFrameSize(of data: inout Data, width: Int, height: Int) throws {
        let bytes = [UInt8](data)
        var index = 2
        while index + 8 < bytes.count {
            #expect(bytes[index] == 0xFF)
            let marker = bytes[index + 1]
            if (0xC0...0xC2).contains(marker) {
                data[index + 5] = UInt8(height >> 8); data[index + 6] = UInt8(height & 0xFF)
                data[index + 7] = UInt8(width >> 8); data[index + 8] = UInt8(width & 0xFF)
                return
            }
            index += 2 + Int(bytes[index + 2]) << 8 + Int(bytes[index + 3])
        }
        Issue.record("no SOF segment")
    }

    // MARK: PNG

    @Test(arguments: [false, true])
    func pngStreamingScaleDownEqualsTheFullDecodeResampledExactly(alpha: Bool) throws {
        let source = Image(pixels: .samplePattern(width: 640, height: 480, alpha: alpha, seed: 11))
        let data = try PNGCoder().encode(source, as: .png)
        let limit = 250 * 180 * 4
        let streamed = try PNGCoder().decode(data, options: ImageDecodingOptions(scaleDownLimitBytes: limit))
        let target = try #require(ImageDecodingOptions(scaleDownLimitBytes: limit).targetSize(for: source.pixelSize))
        #expect(streamed.pixelSize == target)
        #expect(streamed.pixels.hasAlpha == alpha)
        #expect(streamed.pixels == Resampler.resize(try PNGCoder().decode(data).pixels, to: target))
    }

    @Test func anInterlacedPNGIsDecodedWholeAndGivesItsNonInterlacedTwinsThumbnail() throws {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 6, height: 6))
        let interlaced = try PNGCoder().decode(Fixtures.data("png/rgba16-adam7.png"), options: options)
        let plain = try PNGCoder().decode(Fixtures.data("png/rgba16.png"), options: options)
        #expect(plain.pixelSize == PixelSize(width: 6, height: 5))
        #expect(interlaced.pixels == plain.pixels)
    }

    @Test func aPNGThumbnailKeepsTheEXIfOrientation() throws {
        let data = try Fixtures.data("png/exif-orientation6.png") // 13×11 stored, .right
        let thumbnail = try PNGCoder().decode(data, options: ImageDecodingOptions(applyOrientation: true, thumbnailPixelSize: PixelSize(width: 5, height: 6)))
        #expect(thumbnail.orientation == .up)
        #expect(thumbnail.pixelSize == PixelSize(width: 5, height: 6))
        let full = try PNGCoder().decode(data)
        #expect(full.orientation == .right)
        #expect(thumbnail.pixels == Resampler.resize(full.pixels, to: PixelSize(width: 6, height: 5)).applyingOrientation(.right))
    }

    @Test func aTruncatedPNGFailsThroughTheStreamingPathWithoutCrashingWhenStrict() throws {
        let data = try PNGCoder().encode(Image(pixels: .samplePattern(width: 200, height: 150, alpha: true)), as: .png)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 50, height: 50), strict: true)
        for cut in truncations(of: data, samples: 24) {
            #expect(throws: ImageCodingError.self) { try PNGCoder().decode(cut, options: options) }
        }
    }

    // MARK: AVIF

    /// libavif converts band views of the decoded planes (rows starting on even lines for 4:2:0) and each
    /// band is resampled as it comes; the result is the whole conversion resampled.
    @Test(arguments: [false, true])
    func avifThumbnailsConvertAndResampleBandByBandLikeTheWholeImage(alpha: Bool) throws {
        let source = Image(pixels: .samplePattern(width: 301, height: 203, alpha: alpha, seed: 13))
        let data = try AVIFCoder().encode(source, as: .avif, options: ImageEncodingOptions(quality: 0.9))
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 97, height: 97))
        let banded = try AVIFCoder().decode(data, options: options)
        #expect(banded.pixelSize == PixelSize(width: 97, height: 65))
        #expect(banded.pixels.hasAlpha == alpha)
        let whole = try AVIFCoder().decode(data)
        // Chroma is upsampled at the edges of each band's view, so colours may differ by one level before
        // resampling; un-premultiplying amplifies that in pixels nobody sees (alpha near 0).
        #expect(maxVisibleDifference(banded.pixels, Resampler.resize(whole.pixels, to: banded.pixelSize)) <= 1)
    }

    @Test func anAVIFThumbnailKeepsItsOrientationAndBoundsTheUprightImage() throws {
        let data = try Fixtures.data("avif/exif6.avif") // 24×16 stored, .right: 16×24 upright
        let thumbnail = try AVIFCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 8, height: 12)))
        #expect(thumbnail.orientation == .right)
        #expect(thumbnail.pixelSize == PixelSize(width: 12, height: 8)) // 8×12 upright
        let whole = try AVIFCoder().decode(data)
        #expect(maxChannelDifference(thumbnail.pixels, Resampler.resize(whole.pixels, to: PixelSize(width: 12, height: 8))) <= 1)
    }

    // MARK: GIF

    static func animatedGIF(frames: Int, width: Int, height: Int) throws -> Data {
        let frames = (0..<frames).map { index in
            ImageFrame(pixels: .samplePattern(width: width, height: height, seed: UInt32(index + 1)), duration: .milliseconds(50))
        }
        return try GIFCoder().encode(Image(frames: frames), as: .gif)
    }

    @Test func everyFrameOfAnAnimatedGIFThumbnailIsItsCompositedFrameResampled() throws {
        let data = try Self.animatedGIF(frames: 4, width: 120, height: 90)
        let thumbnail = try GIFCoder().decode(data, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 40, height: 40)))
        let whole = try GIFCoder().decode(data)
        #expect(thumbnail.frames.count == 4)
        for (small, full) in zip(thumbnail.frames, whole.frames) {
            #expect(small.pixels.size == PixelSize(width: 40, height: 30))
            #expect(small.pixels == Resampler.resize(full.pixels, to: PixelSize(width: 40, height: 30)))
            #expect(small.duration == full.duration)
        }
    }

    /// Frames are resampled as they are read, so the animation budget counts thumbnail-sized frames:
    /// an animation too large to hold at full size still decodes whole as a thumbnail.
    @Test func theAnimationBudgetOfAGIFThumbnailCountsTheResampledFrames() throws {
        let data = try Self.animatedGIF(frames: 4, width: 120, height: 90)
        let budget = 2 * 120 * 90 * 4 // two full-size frames; four thumbnails fit easily
        #expect { try GIFCoder().decode(data, options: ImageDecodingOptions(maximumAnimationByteCount: budget)) } throws: {
            ($0 as? ImageCodingError)?.code == .animationTooLarge
        }
        let thumbnail = try GIFCoder().decode(data, options: ImageDecodingOptions(
            maximumAnimationByteCount: budget, thumbnailPixelSize: PixelSize(width: 40, height: 40)))
        #expect(thumbnail.frames.count == 4)
    }

    // MARK: Resampling beside the decoder

    /// Feeds `source`'s rows to `BandedDecode` as a decoder would, up to `rows` at a time, failing
    /// once `failAfterRows` rows have been read.
    static func bandedResize(
        _ source: PixelBuffer, to target: PixelSize, pipelined: Bool, failAfterRows: Int? = nil
    ) throws(ImageCodingError) -> PixelBuffer {
        var nextRow = 0
        return try BandedDecode.pixels(
            decodedSize: source.size, target: target, hasAlpha: source.hasAlpha, format: .png, pipelined: pipelined
        ) { buffer, rows throws(ImageCodingError) in
            if let failAfterRows, nextRow >= failAfterRows { throw ImageCodingError(.corruptData, format: .png, "cut") }
            let count = min(rows, source.height - nextRow, 7) // odd bands, so band edges fall anywhere
            source.withUnsafeBytes { bytes in
                let start = nextRow * source.bytesPerRow
                buffer.baseAddress?.update(from: bytes.bindMemory(to: UInt8.self).baseAddress! + start, count: count * source.bytesPerRow)
            }
            nextRow += count
            return count
        }
    }

    @Test(arguments: [false, true])
    func resamplingOnItsOwnThreadGivesTheSamePixelsAsInTheDecodersThread(alpha: Bool) throws {
        let source = PixelBuffer.samplePattern(width: 301, height: 203, alpha: alpha, seed: 9)
        let target = PixelSize(width: 120, height: 77)
        let pipelined = try Self.bandedResize(source, to: target, pipelined: true)
        #expect(pipelined == (try Self.bandedResize(source, to: target, pipelined: false)))
        #expect(pipelined == Resampler.resize(source, to: target))
    }

    @Test func aDecoderFailingWhileItsBandsAreResampledOnAnotherThreadThrowsAndFreesEverything() {
        let source = PixelBuffer.samplePattern(width: 200, height: 150, seed: 4)
        for failAfter in [0, 7, 70, 147] {
            #expect(throws: ImageCodingError.self, "after \(failAfter) rows") {
                try Self.bandedResize(source, to: PixelSize(width: 50, height: 40), pipelined: true, failAfterRows: failAfter)
            }
        }
    }

    // MARK: Memory

    @Test func aBandOfDecodedRowsStaysWithinItsByteBudget() {
        for width in [1, 45, 800, 8192, 65_535, PixelBuffer.maximumSide] {
            let rows = BandedDecode.bandRows(forWidth: width)
            #expect(rows >= 1 && rows <= BandedDecode.maximumBandRows)
            // One row always fits; past that the band never exceeds the budget.
            #expect(rows == 1 || rows * width * 4 <= BandedDecode.bandByteBudget, "width \(width)")
        }
    }
}
