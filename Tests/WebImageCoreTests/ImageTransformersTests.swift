import Testing
import WebImageCore

@Suite struct ImageTransformersTests {
    static let photo = PixelBuffer.samplePattern(width: 60, height: 40)

    @Test func resizeFitKeepsAspectRatioAndNeverUpscalesUnlessAsked() throws {
        let fit = ImageTransformers.Resize(size: PixelSize(width: 30, height: 30), mode: .fit)
        #expect(try fit.transform(pixels: Self.photo).size == PixelSize(width: 30, height: 20))
        let bigger = ImageTransformers.Resize(size: PixelSize(width: 120, height: 120), mode: .fit)
        #expect(try bigger.transform(pixels: Self.photo) == Self.photo)
        let allowed = ImageTransformers.Resize(size: PixelSize(width: 120, height: 120), mode: .fit, upscale: true)
        #expect(try allowed.transform(pixels: Self.photo).size == PixelSize(width: 120, height: 80))
    }

    @Test func resizeFillCoversTheSizeAndCropsTheCentre() throws {
        let fill = ImageTransformers.Resize(size: PixelSize(width: 20, height: 20), mode: .fill)
        #expect(try fill.transform(pixels: Self.photo).size == PixelSize(width: 20, height: 20))
        // Without upscaling, a larger target only crops to its aspect ratio.
        let noUpscale = ImageTransformers.Resize(size: PixelSize(width: 100, height: 100), mode: .fill)
        #expect(try noUpscale.transform(pixels: Self.photo).size == PixelSize(width: 40, height: 40))
    }

    @Test func resizeStretchIgnoresAspectRatio() throws {
        let stretch = ImageTransformers.Resize(size: PixelSize(width: 10, height: 30), mode: .stretch)
        #expect(try stretch.transform(pixels: Self.photo).size == PixelSize(width: 10, height: 30))
    }

    @Test func cropKeepsTheOverlapAndRejectsRectanglesOutside() throws {
        let crop = ImageTransformers.Crop(x: 50, y: 30, width: 20, height: 20)
        let cropped = try crop.transform(pixels: Self.photo)
        #expect(cropped.size == PixelSize(width: 10, height: 10))
        #expect(cropped[0, 0] == Self.photo[50, 30])
        #expect(throws: ImageProcessingError.self) { try ImageTransformers.Crop(x: 70, y: 0, width: 5, height: 5).transform(pixels: Self.photo) }
    }

    @Test func rotateByRightAnglesIsExactAndOtherAnglesEnlargeTheCanvas() throws {
        let quarter = try ImageTransformers.Rotate(degrees: 90).transform(pixels: Self.photo)
        #expect(quarter == Self.photo.applyingOrientation(.right))
        #expect(try ImageTransformers.Rotate(degrees: -270).transform(pixels: Self.photo) == quarter)
        #expect(try ImageTransformers.Rotate(degrees: 360).transform(pixels: Self.photo) == Self.photo)
        let tilted = try ImageTransformers.Rotate(degrees: 45, background: .white).transform(pixels: Self.photo)
        #expect(tilted.width == 71 && tilted.height == 71)
        #expect(tilted[0, 0] == .white) // a corner the image no longer covers
        #expect(!tilted.hasAlpha)
    }

    @Test func flipMirrorsTheRequestedAxes() throws {
        let both = try ImageTransformers.Flip(horizontal: true, vertical: true).transform(pixels: Self.photo)
        #expect(both[0, 0] == Self.photo[59, 39])
        let horizontal = try ImageTransformers.Flip(horizontal: true).transform(pixels: Self.photo)
        #expect(horizontal[0, 5] == Self.photo[59, 5])
    }

    @Test func roundCornersMakeCornersTransparentAndKeepTheCentre() throws {
        let rounded = try ImageTransformers.RoundCorners(radius: 10).transform(pixels: Self.photo)
        #expect(rounded[0, 0].alpha == 0)
        #expect(rounded[30, 20] == Self.photo[30, 20])
        #expect(rounded.hasAlpha)
        let bordered = try ImageTransformers.RoundCorners(radius: 10, borderWidth: 2, borderColor: .white).transform(pixels: Self.photo)
        #expect(bordered[30, 0] == .white)
        #expect(bordered[30, 20] == Self.photo[30, 20])
    }

    @Test func tintBlendsByTheTintAlphaAndKeepsAlpha() throws {
        let source = PixelBuffer(width: 2, height: 1, fill: RGBA(red: 0, green: 0, blue: 0, alpha: 77))
        let full = try ImageTransformers.Tint(color: RGBA(red: 255, green: 0, blue: 0)).transform(pixels: source)
        #expect(full[0, 0] == RGBA(red: 255, green: 0, blue: 0, alpha: 77))
        let half = try ImageTransformers.Tint(color: RGBA(red: 255, green: 255, blue: 255, alpha: 128)).transform(pixels: source)
        #expect(half[1, 0] == RGBA(red: 128, green: 128, blue: 128, alpha: 77))
    }

    @Test func blurSmoothsEdgesAndKeepsFlatAreas() throws {
        var buffer = PixelBuffer(width: 20, height: 5, fill: .black)
        for y in 0..<5 { for x in 10..<20 { buffer[x, y] = .white } }
        let blurred = try ImageTransformers.Blur(radius: 2).transform(pixels: buffer)
        #expect(blurred[9, 2].red > 40 && blurred[9, 2].red < 128)
        #expect(blurred[10, 2].red > 128 && blurred[10, 2].red < 215)
        #expect(blurred[0, 2] == .black && blurred[19, 2] == .white)
        #expect(try ImageTransformers.Blur(radius: 0).transform(pixels: buffer) == buffer)
        #expect(throws: ImageProcessingError.self) { try ImageTransformers.Blur(radius: -1).transform(pixels: buffer) }
    }

    @Test func pipelineAppliesInOrderAndJoinsKeys() throws {
        let pipeline = ImageTransformers.Pipeline([
            ImageTransformers.Crop(x: 0, y: 0, width: 40, height: 40),
            ImageTransformers.Resize(size: PixelSize(width: 10, height: 10)),
        ])
        #expect(pipeline.transformerKey == "crop(0,0,40x40)|resize(10x10,fit)")
        #expect(try pipeline.transform(pixels: Self.photo).size == PixelSize(width: 10, height: 10))
        #expect(transformedCacheKey("https://x/a.png", transformer: pipeline) == "https://x/a.png-crop(0,0,40x40)|resize(10x10,fit)")
    }

    @Test func keysAreStableAndDistinguishParameters() {
        #expect(ImageTransformers.Rotate(degrees: 12.5, background: .white).transformerKey == "rotate(12.5,#ffffffff)")
        #expect(ImageTransformers.Blur(radius: 3).transformerKey == "blur(3)")
        #expect(ImageTransformers.Resize(size: PixelSize(width: 1, height: 2), mode: .fill, upscale: true).transformerKey
                == "resize(1x2,fill,upscale)")
        #expect(ImageTransformers.Tint(color: .black).transformerKey != ImageTransformers.Tint(color: .white).transformerKey)
    }

    @Test func animatedImagesTransformEveryFrame() throws {
        let frames = (0..<3).map { ImageFrame(pixels: .samplePattern(width: 20, height: 10, seed: UInt32($0)), duration: .milliseconds(50)) }
        let animation = Image(frames: frames, format: .gif, loopCount: 2)
        let flipped = try ImageTransformers.Flip(vertical: true).transform(animation)
        #expect(flipped.frames.count == 3 && flipped.loopCount == 2 && flipped.format == .gif)
        #expect(flipped.frames[2].pixels == frames[2].pixels.applyingOrientation(.downMirrored))
        #expect(flipped.frames[1].duration == .milliseconds(50))
        let first = try ImageTransformers.Flip(vertical: true).transform(animation, allFrames: false)
        #expect(first.frames.count == 1 && first.pixels == flipped.frames[0].pixels && first.format == .gif)
    }

    @Test func normalizeOrientationTurnsTheImageUpright() throws {
        let image = Image(pixels: Self.photo, orientation: .left)
        let upright = try ImageTransformers.NormalizeOrientation().transform(image)
        #expect(upright.orientation == .up)
        #expect(upright.pixelSize == PixelSize(width: 40, height: 60))
    }
}
