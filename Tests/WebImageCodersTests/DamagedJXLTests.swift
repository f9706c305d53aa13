import Foundation
import Testing
@testable import WebImageCoders

/// Issue 31 for JPEG XL: a cut animation plays the frames before the cut; a still image cut short shows what
/// libjxl can flush of it (the whole image at the detail received), or is refused when there is nothing to
/// flush; `strict: true` refuses all of them. Chromium 156 shows nothing for a cut JPEG XL file; this follows
/// the issue's rule for libraries that report partial data. The fixtures are our own encodes, cut here.
@Suite struct DamagedJXLTests {
    typealias Fixtures = DamagedImageTests

    @Test func jxlAnimationCutInsideItsLastFramePlaysTheFramesBeforeIt() throws {
        let frames = (1...3).map { ImageFrame(pixels: Fixtures.noise(seed: UInt32($0)), duration: .milliseconds(100)) }
        let clean = try JXLCoder().encode(Image(frames: frames), as: .jpegXL, options: ImageEncodingOptions(lossless: true))
        let reference = try JXLCoder().decode(clean, options: Fixtures.strict)
        try #require(reference.frames.count == 3)
        let cut = clean.prefix(clean.count * 9 / 10)
        let image = try JXLCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.frames.count == 2)
        #expect(image.frames.map(\.pixels.bytes) == reference.frames.prefix(2).map(\.pixels.bytes))
        #expect(image.issues.map(\.kind) == [.framesDropped])
        #expect(Fixtures.codingError { try JXLCoder().decode(cut, options: Fixtures.strict) }?.code == .truncatedData)
    }

    @Test func largeJXLCutShortShowsTheWholeImageAtTheDetailReceived() throws {
        let pixels = Fixtures.gradient(width: 1024, height: 1024)
        let clean = try JXLCoder().encode(Image(pixels: pixels), as: .jpegXL, options: ImageEncodingOptions(quality: 0.9))
        let cut = clean.prefix(clean.count * 3 / 4)
        let image = try JXLCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 1024, height: 1024))
        #expect(image.issues.map(\.kind) == [.truncated])
        #expect(image.issues.first?.firstDamagedRow == nil)
        #expect(psnr(image.pixels, pixels) > 20, "the groups and the DC received give the picture")
        #expect(Fixtures.codingError { try JXLCoder().decode(cut, options: Fixtures.strict) }?.code == .truncatedData)
    }

    @Test func smallJXLCutShortWithNothingToFlushIsStillRefused() throws {
        let clean = try JXLCoder().encode(Image(pixels: Fixtures.noise()), as: .jpegXL, options: ImageEncodingOptions(quality: 0.9))
        for length in [12, clean.count / 2, clean.count - 10] {
            #expect(Fixtures.codingError { try JXLCoder().decode(clean.prefix(length), options: Fixtures.lenient) }?.code == .truncatedData,
                    "cut after \(length) of \(clean.count) bytes")
        }
    }
}
