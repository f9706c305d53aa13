import Foundation
import Testing
import WebImageCore

@Suite struct ImageTests {
    @Test func memoryCostIsTheBytesOfEveryFrame() {
        let frame = ImageFrame(pixels: PixelBuffer(width: 10, height: 5))
        #expect(Image(frames: [frame]).memoryCost == 200)
        #expect(Image(frames: [frame, frame, frame]).memoryCost == 600)
    }

    @Test func sizeInPointsDividesByScaleAndFollowsOrientation() {
        let pixels = PixelBuffer(width: 40, height: 20)
        #expect(Image(pixels: pixels, scale: 2).size == (20, 10))
        #expect(Image(pixels: pixels, scale: 2, orientation: .right).size == (10, 20))
        #expect(Image(pixels: pixels, scale: 0).scale == 1) // a non-positive scale is treated as 1
    }

    @Test func animationPropertiesComeFromTheFrames() {
        let a = ImageFrame(pixels: PixelBuffer(width: 2, height: 2, fill: .white), duration: .milliseconds(100))
        let b = ImageFrame(pixels: PixelBuffer(width: 2, height: 2), duration: .milliseconds(250))
        let image = Image(frames: [a, b], format: .gif, loopCount: 0)
        #expect(image.isAnimated)
        #expect(image.totalDuration == .milliseconds(350))
        #expect(image.hasAlpha) // the second frame is transparent
        #expect(!Image(frames: [a]).isAnimated)
    }

    @Test func withChangesMetadataAndSharesPixels() {
        let image = Image(pixels: PixelBuffer(width: 3, height: 3, fill: .black), format: .png, data: Data([1, 2]))
        let copy = image.with(format: .jpeg, orientation: .left, data: .some(nil))
        #expect(copy.format == .jpeg)
        #expect(copy.orientation == .left)
        #expect(copy.data == nil)
        #expect(copy.frames == image.frames)
        #expect(image.with().data == Data([1, 2]))
    }
}

@Suite struct PixelBufferTests {
    @Test func fillSetsEveryPixelAndTheAlphaFlag() {
        let red = RGBA(red: 255, green: 0, blue: 0)
        let buffer = PixelBuffer(width: 3, height: 2, fill: red)
        #expect(buffer.bytes.count == 24)
        #expect(buffer[2, 1] == red)
        #expect(!buffer.hasAlpha)
        #expect(buffer.isOpaque)
        #expect(PixelBuffer(width: 1, height: 1).hasAlpha)
    }

    @Test func alphaFlagFromContentDetectsTransparency() {
        var buffer = PixelBuffer(width: 2, height: 2, fill: .white)
        #expect(!buffer.withAlphaFlagFromContent().hasAlpha)
        buffer[1, 1] = RGBA(red: 1, green: 2, blue: 3, alpha: 254)
        #expect(buffer.withAlphaFlagFromContent().hasAlpha)
    }

    @Test func uninitialisedInitialiserReportsTheBodysError() {
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            _ = try PixelBuffer(width: 2, height: 2, hasAlpha: false) { (_: UnsafeMutableBufferPointer<UInt8>) throws(Failure) in
                throw Failure()
            }
        }
        let made = PixelBuffer(width: 2, height: 1, hasAlpha: false) { $0.initialize(repeating: 7) }
        #expect(made.bytes == Array(repeating: 7, count: 8))
    }

    @Test func samplePatternIsDeterministicAndHasAlphaOnlyWhenAsked() {
        let a = PixelBuffer.samplePattern(width: 64, height: 48)
        #expect(a == PixelBuffer.samplePattern(width: 64, height: 48))
        #expect(a.isOpaque && !a.hasAlpha)
        let b = PixelBuffer.samplePattern(width: 64, height: 48, alpha: true)
        #expect(b.hasAlpha && !b.isOpaque)
        #expect(b[0, 0].alpha == 0) // transparent corners
        #expect(b[32, 24].alpha == 255) // opaque centre
    }
}
