import Testing
import WebImageKit
@testable import WebImageServer

/// thumbor's `MAX_WIDTH`/`MAX_HEIGHT` on the source (its `Engine.normalize()`), the manual crop moved into the
/// shrunk source (`translate_crop_coordinates`), and the steps `meta/` lists; each expectation is thumbor 7.8's.
struct ThumborNormalizeTests {
    func geometry(maximumWidth: Int, maximumHeight: Int, _ edit: (inout ThumborGeometry) -> Void = { _ in }) -> ThumborGeometry {
        var geometry = ThumborGeometry(maximumSourceWidth: maximumWidth, maximumSourceHeight: maximumHeight)
        edit(&geometry)
        return geometry
    }

    let landscape = PixelSize(width: 400, height: 300), portrait = PixelSize(width: 202, height: 303)

    @Test func theSideWithTheLargerExcessGoesToItsMaximumTheOtherRoundsHalvesToEven() {
        // 400×300 under 150/250: excesses 250 and 50, the width goes to 150; 150 × 300 / 400 = 112.5 → 112.
        #expect(geometry(maximumWidth: 150, maximumHeight: 250).normalizedSize(of: landscape) == PixelSize(width: 150, height: 112))
        // 202×303: excesses 52 and 53, the height goes to 250; 250 × 202 / 303 = 166.7 → 167.
        #expect(geometry(maximumWidth: 150, maximumHeight: 250).normalizedSize(of: portrait) == PixelSize(width: 167, height: 250))
    }

    @Test func equalExcessesShrinkNothingThoughBothSidesAreOver() {
        #expect(geometry(maximumWidth: 150, maximumHeight: 50).normalizedSize(of: landscape) == nil)
    }

    @Test func aMaximumOfZeroNeverShrinksItsSideAndCountsItsWholeSideAsExcess() {
        // MAX_HEIGHT 0: the height's excess is 300, larger than the width's 250, and 0 shrinks nothing.
        #expect(geometry(maximumWidth: 150, maximumHeight: 0).normalizedSize(of: landscape) == nil)
        #expect(geometry(maximumWidth: 150, maximumHeight: 0).normalizedSize(of: PixelSize(width: 500, height: 100)) == PixelSize(width: 150, height: 30))
        #expect(geometry(maximumWidth: 0, maximumHeight: 100).normalizedSize(of: landscape) == nil)
        #expect(geometry(maximumWidth: 0, maximumHeight: 0).normalizedSize(of: landscape) == nil)
    }

    @Test func aSourceInsideBothMaximumsIsNotShrunkAndTheOtherSideKeepsOnePixel() {
        #expect(geometry(maximumWidth: 400, maximumHeight: 300).normalizedSize(of: landscape) == nil)
        #expect(geometry(maximumWidth: 100, maximumHeight: 100).normalizedSize(of: PixelSize(width: 4000, height: 1)) == PixelSize(width: 100, height: 1))
    }

    @Test func theManualCropMovesIntoTheShrunkSourceWithFloorDivision() {
        let crop = ThumborRequest.Rectangle(left: 10, top: 20, right: 210, bottom: 170)
        let moved = ThumborGeometry.translatedCrop(crop, from: landscape, to: PixelSize(width: 150, height: 112))
        // 10·150//400, 20·112//300, 210·150//400, 170·112//300.
        #expect(moved == ThumborRequest.Rectangle(left: 3, top: 7, right: 78, bottom: 63))
    }

    @Test func theTransformShrinksFirstThenCropsThenPlansOnTheShrunkSource() throws {
        var options = ProcessingOptions()
        options.thumborGeometry = geometry(maximumWidth: 150, maximumHeight: 250) {
            $0.width = .pixels(100)
            $0.crop = ThumborRequest.Rectangle(left: 10, top: 20, right: 210, bottom: 170)
        }
        let transformer = ProcessingTransformer(options: options, maximumPixelCount: 1 << 24)
        var steps = ThumborSteps()
        let result = try transformer.transform(pixels: SourceOrigin.halves(width: 400, height: 300), flattenOnto: nil, trims: true, thumborSteps: &steps)
        #expect(result.size == PixelSize(width: 100, height: 75))
        #expect(steps.operations == [
            .crop(ThumborRequest.Rectangle(left: 3, top: 7, right: 78, bottom: 63)),
            .crop(ThumborRequest.Rectangle(left: 0, top: 0, right: 75, bottom: 56)),
            .resize(PixelSize(width: 100, height: 75)),
        ])
        // The alignment's point in the 75×56 crop.
        #expect(steps.focalPoints == [ThumborSteps.FocalPoint(x: 37, y: 28, weight: 1, width: 1, height: 1, origin: "alignment")])
        // Source x 8…208 of a red | blue split at 200: red at the left, blue at the right edge.
        #expect(result[5, 37].red > 200 && result[5, 37].blue < 60)
        #expect(result[99, 37].blue > result[99, 37].red)
    }

    @Test func aSourceShrunkOnLoadBelowTheMaximumsIsPlannedOnTheNormalizedStoredSize() throws {
        var options = ProcessingOptions()
        options.thumborGeometry = geometry(maximumWidth: 150, maximumHeight: 250) { $0.width = .pixels(90) }
        var transformer = ProcessingTransformer(options: options, maximumPixelCount: 1 << 24)
        transformer.storedSourceSize = landscape
        let quarter = PixelBuffer(width: 100, height: 75, fill: RGBA(red: 1, green: 2, blue: 3))
        // On 150×112: 90 × 112 / 150 = 67.2 → 67 (on the stored 400×300 it would be 67.5 → 68).
        #expect(try transformer.transform(pixels: quarter, flattenOnto: nil).size == PixelSize(width: 90, height: 67))
        // Decoded larger than the normalized size: shrunk to it first, the same plan.
        let half = PixelBuffer(width: 200, height: 150, fill: RGBA(red: 1, green: 2, blue: 3))
        #expect(try transformer.transform(pixels: half, flattenOnto: nil).size == PixelSize(width: 90, height: 67))
    }

    @Test func aJPEGWhosePlanNeedsThePixelsDecodesStraightToTheNormalizedSize() throws {
        var options = ProcessingOptions()
        options.thumborGeometry = geometry(maximumWidth: 150, maximumHeight: 250) {
            $0.width = .pixels(100)
            $0.crop = ThumborRequest.Rectangle(left: 10, top: 20, right: 210, bottom: 170)
        }
        let box = try #require(options.thumborDecodeBox(stored: landscape))
        #expect(box.size == PixelSize(width: 150, height: 112) && box.mode == .stretch)
        // A plan on sizes alone keeps its own box when it decodes smaller; the normalized size when that is smaller.
        var resize = ProcessingOptions()
        resize.thumborGeometry = geometry(maximumWidth: 150, maximumHeight: 250) { $0.width = .pixels(100) }
        #expect(resize.thumborDecodeBox(stored: landscape)?.size == resize.thumborShrinkOnLoad?.size)
        resize.thumborGeometry = geometry(maximumWidth: 150, maximumHeight: 250) { $0.width = .pixels(150); $0.height = .pixels(250) }
        // Covering 150×250 would decode 333×250; the source becomes 150×112 first anyway.
        #expect(resize.thumborDecodeBox(stored: landscape)?.size == PixelSize(width: 150, height: 112))
        // No MAX_WIDTH/MAX_HEIGHT to apply and pixels needed: whole.
        options.thumborGeometry?.maximumSourceWidth = 0
        options.thumborGeometry?.maximumSourceHeight = 0
        #expect(options.thumborDecodeBox(stored: landscape) == nil)

        // Decoded to 150×112, the crop moved from the stored 400×300: thumbor's steps and colours.
        options.thumborGeometry = geometry(maximumWidth: 150, maximumHeight: 250) {
            $0.width = .pixels(100)
            $0.crop = ThumborRequest.Rectangle(left: 10, top: 20, right: 210, bottom: 170)
        }
        let jpeg = try ImageCodersManager.shared.encode(Image(pixels: SourceOrigin.halves(width: 400, height: 300)), as: .jpeg, options: .init())
        let decoded = try ImageCodersManager.shared.decode(jpeg, options: ImageDecodingOptions(thumbnailPixelSize: box.size, thumbnailMode: box.mode))
        #expect(decoded.pixelSize == PixelSize(width: 150, height: 112))
        var transformer = ProcessingTransformer(options: options, maximumPixelCount: 1 << 24)
        transformer.storedSourceSize = landscape
        var steps = ThumborSteps()
        let result = try transformer.transform(pixels: decoded.pixels, flattenOnto: nil, trims: true, thumborSteps: &steps)
        #expect(result.size == PixelSize(width: 100, height: 75))
        #expect(steps.operations.first == .crop(ThumborRequest.Rectangle(left: 3, top: 7, right: 78, bottom: 63)))
        #expect(result[5, 37].red > 200 && result[5, 37].blue < 60)
        #expect(result[99, 37].blue > result[99, 37].red)
    }

    @Test func aNearlySquareSourceNormalizedToASquareStillMovesTheCrop() throws {
        // 300×301 under 150/150: the height's excess is larger; 150 × 300 / 301 = 149.5 → 150 (to even): a square.
        var options = ProcessingOptions()
        options.thumborGeometry = geometry(maximumWidth: 150, maximumHeight: 150) {
            $0.crop = ThumborRequest.Rectangle(left: 100, top: 100, right: 200, bottom: 200)
        }
        #expect(options.thumborGeometry?.normalizedSize(of: PixelSize(width: 300, height: 301)) == PixelSize(width: 150, height: 150))
        var transformer = ProcessingTransformer(options: options, maximumPixelCount: 1 << 24)
        transformer.storedSourceSize = PixelSize(width: 300, height: 301)
        var steps = ThumborSteps()
        let square = PixelBuffer(width: 150, height: 150, fill: RGBA(red: 1, green: 2, blue: 3))
        let result = try transformer.transform(pixels: square, flattenOnto: nil, trims: true, thumborSteps: &steps)
        #expect(steps.operations == [.crop(ThumborRequest.Rectangle(left: 50, top: 49, right: 100, bottom: 99))])
        #expect(result.size == PixelSize(width: 50, height: 50))
    }

    @Test func theStepsListTrimsCutFlipsAndFocalRectanglesMovedByTheManualCrop() throws {
        var options = ProcessingOptions()
        var trim = ProcessingOptions.Trim(threshold: 0)
        trim.measuresEuclideanDistance = true
        options.trim = trim
        options.flipHorizontal = true
        options.thumborGeometry = ThumborGeometry(
            width: .pixels(40), crop: ThumborRequest.Rectangle(left: 10, top: 10, right: 60, bottom: 50),
            focalPoints: [ThumborRequest.Rectangle(left: 30, top: 20, right: 41, bottom: 30), ThumborRequest.Rectangle(left: 70, top: 0, right: 80, bottom: 10)])
        var bordered = PixelBuffer(width: 100, height: 80, fill: RGBA(red: 255, green: 255, blue: 255))
        for y in 10..<70 { for x in 10..<90 { bordered[x, y] = RGBA(red: 255, green: 0, blue: 0) } }
        var steps = ThumborSteps()
        let result = try ProcessingTransformer(options: options, maximumPixelCount: 1 << 24)
            .transform(pixels: bordered, flattenOnto: nil, trims: true, thumborSteps: &steps)
        // trim's cut, then the manual crop moved by the trimmed border (10, 10), then the resize to 40 wide.
        #expect(steps.operations == [
            .crop(ThumborRequest.Rectangle(left: 10, top: 10, right: 90, bottom: 70)),
            .crop(ThumborRequest.Rectangle(left: 0, top: 0, right: 50, bottom: 40)),
            .resize(PixelSize(width: 40, height: 32)),
            .flipHorizontally,
        ])
        #expect(result.size == PixelSize(width: 40, height: 32))
        // The first rectangle's centre (35, 25) inside the crop, moved by it; the second outside, dropped.
        #expect(steps.focalPoints == [ThumborSteps.FocalPoint(x: 35, y: 25, weight: 110, width: 11, height: 10, origin: "Explicit")])
    }

    @Test func metadataTakesTheTargetFromTheLastCropOrResizeAndTheSourceSizeAfterAll() throws {
        let steps = ThumborSteps(operations: [
            .crop(ThumborRequest.Rectangle(left: 0, top: 16, right: 400, bottom: 283)), .resize(PixelSize(width: 300, height: 200)), .flipVertically,
        ])
        let metadata = ThumborMetadata(url: "example.com/a.jpg", size: PixelSize(width: 200, height: 300), steps: steps, frameCount: 1)
        #expect(metadata.thumbor.target.width == 300 && metadata.thumbor.target.height == 200)
        #expect(metadata.thumbor.source.width == 200 && metadata.thumbor.source.height == 300)
        #expect(metadata.thumbor.operations.map(\.type) == ["crop", "resize", "flip_vertically"])
        let none = ThumborMetadata(url: "a", size: PixelSize(width: 500, height: 500), steps: ThumborSteps(), frameCount: 1)
        #expect(none.thumbor.target.width == 500 && none.thumbor.target.height == 500)
    }

    @Test func metaNamesTheImageAsThumborsRequestQuotesIt() throws {
        let request = try ThumborURLParser().parse(path: "/unsafe/meta/100x0/127.0.0.1:8080/a%20b/c.jpg")
        #expect(request.requestedImage == "127.0.0.1%3A8080/a%20b/c.jpg")
        #expect(try ThumborURLParser().parse(path: "/unsafe/http://example.com/a.jpg").requestedImage == "http%3A//example.com/a.jpg")
    }
}
