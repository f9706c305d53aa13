import Testing
import WebImageCore

@Suite struct ImageScaleTests {
    @Test func at2xKeyGivesScale2AndAt3xKeyGivesScale3() { // CP-02
        #expect(imageScale(forKey: "https://example.com/icon@2x.png") == 2)
        #expect(imageScale(forKey: "https://example.com/icon@3x.png") == 3)
        #expect(imageScale(forKey: "https://example.com/icon.png") == 1)
    }

    @Test func at3xWinsWhenBothAppear() { // K-29
        #expect(imageScale(forKey: "dir@2x.d/icon@3x.png") == 3)
    }

    @Test func keysShorterThanEightCharactersAreNeverScaled() { // K-29
        #expect(imageScale(forKey: "a@2x.pn") == 1)
        #expect(imageScale(forKey: "ab@2x.png") == 2)
        #expect(imageScale(forKey: "") == 1)
    }

    @Test func theMarkerNeedsTheFollowingDot() {
        #expect(imageScale(forKey: "https://example.com/icon@2x") == 1)
        #expect(imageScale(forKey: "https://example.com/icon@2xpng") == 1)
    }

    @Test func scaledImageKeepsPixelsLoopCountAndFormat() { // CP-03
        let frame = ImageFrame(pixels: PixelBuffer(width: 4, height: 2, fill: .white), duration: .milliseconds(100))
        let image = Image(frames: [frame, frame], format: .gif, loopCount: 3)
        let scaled = image.scaled(forKey: "https://example.com/anim@2x.gif")
        #expect(scaled.scale == 2)
        #expect(scaled.loopCount == 3)
        #expect(scaled.format == .gif)
        #expect(scaled.frames == image.frames)
        #expect(scaled.size == (2, 1))
        #expect(image.scaled(forKey: "https://example.com/plain.gif") === image)
    }
}
