import Foundation
import Testing
@testable import WebImageCoders

/// Every committed fixture that decodes frame by frame: all GIFs, every APNG, the animated WebP.
private let animatedFixtures = [
    "gif/anim-im.gif", "gif/anim-pil.gif", "gif/clipped.gif", "gif/loop-3.gif", "gif/no-loop.gif", "gif/still-alpha.gif",
    "webp/animated.webp",
] + APNGFixture.names.map { "apng/\($0).png" }

private let coders = ImageCodersManager(coders: ImageCodersManager.builtInCoders)

/// The source for a fixture, which must exist.
private func source(_ name: String, options: ImageDecodingOptions = ImageDecodingOptions()) throws -> any AnimatedImageFrameSource {
    try #require(try coders.animatedFrameSource(for: Fixtures.data(name), options: options), "\(name) has no frame source")
}

/// The error `body` throws as an `ImageCodingError`, or nil when it throws nothing; a different error fails the test.
@Suite struct AnimatedFrameSourceTests {
    @Test(arguments: animatedFixtures)
    func everyFrameProducedOnDemandEqualsTheFullDecode(_ name: String) throws {
        let data = try Fixtures.data(name)
        let image = try coders.decode(data)
        let source = try source(name)
        #expect(source.frameCount == image.frames.count)
        #expect(source.loopCount == image.loopCount)
        #expect(source.pixelSize == image.pixelSize)
        #expect(source.orientation == image.orientation)
        for (index, frame) in image.frames.enumerated() {
            #expect(source.duration(ofFrame: index) == frame.duration, "\(name) frame \(index) duration")
            #expect(try source.frame(at: index) == frame.pixels, "\(name) frame \(index)")
        }
    }

    @Test(arguments: animatedFixtures)
    func framesAskedForInAnyOrderStillEqualTheFullDecode(_ name: String) throws {
        let image = try coders.decode(Fixtures.data(name))
        let source = try source(name)
        let count = image.frames.count
        // Backwards (each an earlier frame: a restart), then repeats and jumps ahead.
        let order = Array((0..<count).reversed()) + [count - 1, count - 1, 0, 0] + Array(stride(from: 0, to: count, by: 2))
        for index in order {
            #expect(try source.frame(at: index) == image.frames[index].pixels, "\(name) frame \(index)")
        }
    }

    @Test(arguments: ["gif/anim-pil.gif", "webp/animated.webp", "apng/apng-pillow.png"])
    func thumbnailOptionsShrinkEveryFrameAsTheFullDecodeDoes(_ name: String) throws {
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 7, height: 7))
        let image = try coders.decode(Fixtures.data(name), options: options)
        let source = try source(name, options: options)
        #expect(source.pixelSize == image.pixelSize)
        #expect(source.pixelSize.width <= 7 && source.pixelSize.height <= 7)
        for (index, frame) in image.frames.enumerated() {
            #expect(try source.frame(at: index) == frame.pixels, "\(name) frame \(index)")
        }
    }

    @Test func anEXIFOrientationIsReportedOrAppliedToEveryFrameAsInAFullDecode() throws {
        let frames = (0..<3).map { index in
            var pixels = PixelBuffer(width: 6, height: 4, fill: .white)
            pixels[index, 0] = RGBA(red: 200, green: 10, blue: 10)
            return ImageFrame(pixels: pixels, duration: .milliseconds(80))
        }
        let image = Image(frames: frames, orientation: .right, loopCount: 2)
        let data = try WebPCoder().encode(image, as: .webp, options: ImageEncodingOptions(lossless: true))
        for applyOrientation in [false, true] {
            let options = ImageDecodingOptions(applyOrientation: applyOrientation)
            let decoded = try coders.decode(data, options: options)
            let source = try #require(try coders.animatedFrameSource(for: data, options: options))
            #expect(source.orientation == decoded.orientation)
            #expect(source.orientation == (applyOrientation ? .up : .right))
            #expect(source.pixelSize == decoded.pixelSize)
            #expect(source.pixelSize == (applyOrientation ? PixelSize(width: 4, height: 6) : PixelSize(width: 6, height: 4)))
            for (index, frame) in decoded.frames.enumerated() {
                #expect(try source.frame(at: index) == frame.pixels, "frame \(index), applyOrientation \(applyOrientation)")
            }
        }
    }

    @Test func stillImagesOfOtherFormatsHaveNoFrameSource() throws {
        for name in ["png/rgba8.png", "webp/lossy-alpha.webp", "jpeg/rgb.jpg"] {
            #expect(try coders.animatedFrameSource(for: Fixtures.data(name)) == nil, "\(name)")
        }
        #expect(try coders.animatedFrameSource(for: Data("not an image".utf8)) == nil)
    }

    @Test(arguments: animatedFixtures)
    func aFixtureCutShortGivesTruncatedDataAndNeverASource(_ name: String) throws {
        let data = try Fixtures.data(name)
        for cut in truncations(of: data, samples: 48) {
            var made: (any AnimatedImageFrameSource)?
            let error = codingError { made = try coders.animatedFrameSource(for: cut) }
            #expect(made == nil, "\(name) cut at \(cut.count) of \(data.count) made a source")
            // Too short to recognise (or a PNG cut before its acTL): no source and no error; otherwise truncation.
            if let error {
                #expect(error.code == .truncatedData, "\(name) cut at \(cut.count): \(error)")
            }
        }
    }

    @Test(arguments: animatedFixtures)
    func corruptBytesGiveTypedErrorsFromCreationOrFromTheFrameAndNeverACrash(_ name: String) throws {
        let data = try Fixtures.data(name)
        // A flipped header byte may claim a large canvas: keep what it can allocate small.
        let options = ImageDecodingOptions(maximumPixelCount: 1 << 20)
        for seed in 1...24 {
            var corrupt = data
            let noise = randomBytes(count: 8, seed: UInt64(seed))
            for (offset, byte) in noise.enumerated() {
                // Spread the flips over the file past its signature.
                let position = 8 + (Int(byte) * 131 + offset * 977 + seed * 61) % max(data.count - 8, 1)
                corrupt[corrupt.startIndex + position] ^= byte | 1
            }
            _ = codingError {
                guard let source = try coders.animatedFrameSource(for: corrupt, options: options) else { return }
                for index in 0..<source.frameCount { _ = try source.frame(at: index) }
                for index in (0..<source.frameCount).reversed() { _ = try source.frame(at: index) }
            }
        }
    }

    @Test func anIndexOutOfRangeThrowsCorruptDataAndOtherFramesStillDecode() throws {
        let source = try source("gif/anim-im.gif")
        let error = codingError { _ = try source.frame(at: source.frameCount) }
        #expect(error?.code == .corruptData)
        #expect(codingError { _ = try source.frame(at: -1) }?.code == .corruptData)
        let image = try coders.decode(Fixtures.data("gif/anim-im.gif"))
        #expect(try source.frame(at: 2) == image.frames[2].pixels)
    }

    @Test func aCanvasOverThePixelLimitThrowsImageTooLargeBeforeAnyFrame() throws {
        let options = ImageDecodingOptions(maximumPixelCount: 10)
        for name in ["gif/anim-im.gif", "webp/animated.webp", "apng/apng-pillow.png"] {
            let error = codingError { _ = try coders.animatedFrameSource(for: Fixtures.data(name), options: options) }
            #expect(error?.code == .imageTooLarge, "\(name)")
        }
    }

    @Test func theMemoryLimitOfAFullDecodeDoesNotApplyFrameByFrame() throws {
        let options = ImageDecodingOptions(firstFrameOnly: true, maximumAnimationByteCount: 1)
        let source = try source("gif/anim-im.gif", options: options)
        #expect(source.frameCount == 4)
        #expect(throws: Never.self) { try source.frame(at: 3) }
    }

    @Test(arguments: ["gif/loop-3.gif", "webp/animated.webp", "apng/apng-dispose-previous.png"])
    func aPlayerOnAnOnDemandSourcePlaysTheFullDecodesFramesAtEveryTime(_ name: String) throws {
        let data = try Fixtures.data(name)
        let image = try coders.decode(data)
        let player = AnimatedImagePlayer(
            source: try source(name), configuration: .init(maximumBufferedFrames: 2, prefetchAhead: 1))
        let reference = AnimatedImagePlayer(image: image)
        let step = Duration.milliseconds(7)
        var elapsed = Duration.zero
        let end = reference.loopDuration * (image.loopCount == 0 ? 2 : image.loopCount + 1)
        while elapsed <= end {
            let position = player.position(at: elapsed)
            #expect(position == reference.position(at: elapsed))
            #expect(try player.frame(at: elapsed) == image.frames[position.index].pixels, "\(name) at \(elapsed)")
            try player.prefetch()
            #expect(player.bufferedFrameCount <= 2)
            elapsed += step
        }
        if image.loopCount > 0 { #expect(player.isFinished) }
    }
}
