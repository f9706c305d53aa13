import Foundation
import Testing
import WebImageCore

@Suite struct ImageDecodingOptionsTests {
    static let large = PixelSize(width: 6000, height: 4000)

    @Test func thumbnailFitsInsideTheSizeKeepingTheAspectRatio() {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 300, height: 300))
        #expect(options.targetSize(for: Self.large) == PixelSize(width: 300, height: 200))
    }

    @Test func thumbnailWithoutAspectRatioStretchesToTheSize() {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 300, height: 300), thumbnailMode: .stretch)
        #expect(options.targetSize(for: Self.large) == PixelSize(width: 300, height: 300))
    }

    @Test func thumbnailBoundsApplyToTheUprightImage() {
        // Stored 6000×4000 with orientation "right": upright it is 4000×6000, which fits 200×300 at 200×300.
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 200, height: 300))
        #expect(options.targetSize(for: Self.large, orientation: .right) == PixelSize(width: 300, height: 200))
        #expect(options.targetSize(for: Self.large, orientation: .up) == PixelSize(width: 200, height: 133))
    }

    @Test func smallerImagesAreNeverEnlarged() {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 300, height: 300))
        #expect(options.targetSize(for: PixelSize(width: 200, height: 100)) == nil)
    }

    @Test func scaleDownKeepsDecodedBytesWithinTheLimit() throws { // DE-13, K-25
        let options = ImageDecodingOptions(scaleDownLimitBytes: ImageDecodingOptions.defaultScaleDownLimitBytes)
        let target = try #require(options.targetSize(for: Self.large))
        #expect(target.pixelCount * 4 <= 60 * 1024 * 1024)
        #expect(target.pixelCount > 15_000_000) // close to the 15,728,640-pixel budget
        #expect(abs(Double(target.width) / Double(target.height) - 1.5) < 0.01)
        #expect(options.targetSize(for: PixelSize(width: 1000, height: 1000)) == nil)
    }

    @Test func makeImageResamplesEveryFrameToTheTarget() {
        let frames = (0..<2).map { ImageFrame(pixels: .samplePattern(width: 80, height: 40, seed: UInt32($0)), duration: .milliseconds(90)) }
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 20, height: 20))
        let image = options.makeImage(frames: frames, format: .gif, loopCount: 0, data: Data())
        #expect(image.pixelSize == PixelSize(width: 20, height: 10))
        #expect(image.frames.count == 2 && image.frames[1].duration == .milliseconds(90))
    }

    @Test func makeImageComputesTheTargetFromTheSourceSizeAfterShrinkOnLoad() {
        // A decoder that already shrank 800×400 to 100×50 (1/8) still ends at the exact thumbnail size.
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 90, height: 90))
        let shrunk = [ImageFrame(pixels: .samplePattern(width: 100, height: 50))]
        let image = options.makeImage(frames: shrunk, format: .jpeg, data: Data(), sourceSize: PixelSize(width: 800, height: 400))
        #expect(image.pixelSize == PixelSize(width: 90, height: 45))
    }
}
