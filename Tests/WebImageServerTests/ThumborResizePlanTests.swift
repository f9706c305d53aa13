import Testing
import WebImageKit
@testable import WebImageServer

/// thumbor's size arithmetic (its `Transformer` and size filters): each expectation is thumbor 7.8's answer.
struct ThumborResizePlanTests {
    func plan(_ width: Int, _ height: Int, _ fit: ThumborRequest.Fit = .none, source: PixelSize, _ edit: (inout ThumborGeometry) -> Void = { _ in }) -> ThumborResizePlan {
        var geometry = ThumborGeometry(fit: fit, width: .pixels(width), height: .pixels(height))
        edit(&geometry)
        return ThumborResizePlan(source: source, original: source, geometry: geometry)
    }

    let landscape = PixelSize(width: 400, height: 300), portrait = PixelSize(width: 202, height: 303)

    @Test func aSideOfZeroFollowsTheAspectRatioWithHalvesRoundedToEven() {
        #expect(plan(333, 0, source: landscape).finalSize == PixelSize(width: 333, height: 250))
        #expect(plan(0, 101, source: landscape).finalSize == PixelSize(width: 135, height: 101))
        // 99 × 303 / 202 = 148.5: Python's round gives 148 (imgproxy's rounding would give 149).
        #expect(plan(99, 0, source: portrait).finalSize == PixelSize(width: 99, height: 148))
    }

    @Test func withoutFitInTheSourceIsCroppedToTheRatioThenResizedEnlargingToo() {
        let cropped = plan(300, 200, source: landscape)
        #expect(cropped.crop == ResizePlan.Rect(x: 0, y: 16, width: 400, height: 267))
        #expect(cropped.finalSize == PixelSize(width: 300, height: 200))
        #expect(plan(800, 500, source: landscape).finalSize == PixelSize(width: 800, height: 500))
        #expect(plan(120, 40, source: landscape) { $0.horizontalAlignment = .right; $0.verticalAlignment = .bottom }.crop == ResizePlan.Rect(x: 0, y: 167, width: 400, height: 133))
    }

    @Test func fitInNeverEnlargesFullFitInCoversTheBox() {
        #expect(plan(200, 200, .fitIn, source: landscape).finalSize == PixelSize(width: 200, height: 150))
        #expect(plan(800, 800, .fitIn, source: landscape).finalSize == landscape)
        #expect(plan(200, 200, .fullFitIn, source: landscape).finalSize == PixelSize(width: 267, height: 200))
        #expect(plan(500, 500, .fullFitIn, source: portrait).finalSize == PixelSize(width: 500, height: 750))
    }

    @Test func adaptiveFitInSwapsTheBoxForASourceOfTheOtherOrientation() {
        #expect(plan(100, 200, .fitIn, source: landscape) { $0.adaptive = true }.finalSize == PixelSize(width: 133, height: 100))
        #expect(plan(300, 100, .fullFitIn, source: portrait) { $0.adaptive = true }.finalSize == PixelSize(width: 200, height: 300))
    }

    @Test func noUpscaleCapsTheRequestAtTheSourceUpscaleFillsTheFitInBoxProportionScalesLast() {
        #expect(plan(800, 600, source: landscape) { $0.noUpscale = true }.finalSize == landscape)
        #expect(plan(100, 900, source: portrait) { $0.noUpscale = true }.finalSize == PixelSize(width: 100, height: 303))
        #expect(plan(800, 800, .fitIn, source: landscape) { $0.upscale = true }.finalSize == PixelSize(width: 800, height: 600))
        #expect(plan(0, 0, source: portrait) { $0.proportion = 0.33 }.finalSize == PixelSize(width: 66, height: 99))
        #expect(plan(100, 300, source: landscape) { $0.stretch = true }.crop == nil)
    }

    @Test func theManualCropIsMovedByTheTrimAndKeptInsideTheImage() {
        let crop = ThumborRequest.Rectangle(left: 100, top: 100, right: 500, bottom: 500)
        #expect(ProcessingTransformer.manualCrop(crop, in: portrait, trimmedBy: nil) == ThumborRequest.Rectangle(left: 100, top: 100, right: 202, bottom: 303))
        #expect(ProcessingTransformer.manualCrop(crop, in: portrait, trimmedBy: ResizePlan.Rect(x: 10, y: 20, width: 1, height: 1))
            == ThumborRequest.Rectangle(left: 90, top: 80, right: 202, bottom: 303))
        #expect(ProcessingTransformer.manualCrop(ThumborRequest.Rectangle(left: 300, top: 0, right: 400, bottom: 10), in: portrait, trimmedBy: nil) == nil)
    }

    @Test func aSourceShrunkOnLoadIsPlannedOnItsStoredSizeSoTheSizesStayThumbors() throws {
        var options = ProcessingOptions()
        options.thumborGeometry = ThumborGeometry(width: .pixels(99), height: .pixels(0))
        var transformer = ProcessingTransformer(options: options, maximumPixelCount: 1 << 24)
        let shrunk = PixelBuffer(width: 101, height: 152, fill: RGBA(red: 1, green: 2, blue: 3))
        // Planned on the shrunk pixels, 99 × 152 / 101 would round to 149; on the stored 202×303, thumbor's 148.
        #expect(try transformer.transform(pixels: shrunk, flattenOnto: nil).size == PixelSize(width: 99, height: 149))
        transformer.storedSourceSize = portrait
        #expect(try transformer.transform(pixels: shrunk, flattenOnto: nil).size == PixelSize(width: 99, height: 148))
    }

    @Test func onlyGeometryThatPlansOnSizesAloneShrinksOnLoad() {
        #expect(ThumborGeometry(fit: .fitIn, width: .pixels(200), height: .pixels(200)).shrinkOnLoad?.mode == .fit)
        #expect(ThumborGeometry(fit: .fullFitIn, width: .pixels(200), height: .pixels(200)).shrinkOnLoad?.mode == .fill)
        #expect(ThumborGeometry(width: .pixels(300), height: .pixels(200)).shrinkOnLoad?.size == PixelSize(width: 300, height: 200))
        #expect(ThumborGeometry(width: .pixels(300), height: .pixels(0)).shrinkOnLoad?.mode == .fit)
        #expect(ThumborGeometry(width: .pixels(300), crop: ThumborRequest.Rectangle(left: 0, top: 0, right: 10, bottom: 10)).shrinkOnLoad == nil)
        #expect(ThumborGeometry(width: .pixels(300), smart: true).shrinkOnLoad == nil)
        #expect(ThumborGeometry(width: .original, height: .pixels(10)).shrinkOnLoad == nil)
        #expect(ThumborGeometry().shrinkOnLoad == nil)
        var options = ProcessingOptions()
        options.thumborGeometry = ThumborGeometry(width: .pixels(300))
        options.trim = ProcessingOptions.Trim(threshold: 0)
        #expect(options.thumborShrinkOnLoad == nil)
    }

    @Test func thumborsTrimToleranceIsAEuclideanDistanceOfTheColours() {
        // A white border around a ring of (245, 245, 245) around black: each channel differs by 10 (under 12),
        // the distance is √300 ≈ 17.3 (over 12), so thumbor keeps the ring.
        var pixels = PixelBuffer(width: 30, height: 30, fill: RGBA(red: 255, green: 255, blue: 255))
        for y in 5..<25 { for x in 5..<25 { pixels[x, y] = RGBA(red: 245, green: 245, blue: 245) } }
        for y in 10..<20 { for x in 10..<20 { pixels[x, y] = RGBA(red: 0, green: 0, blue: 0) } }
        var trim = ProcessingOptions.Trim(threshold: 12)
        #expect(TrimBorder(trim: trim).area(in: pixels) == ResizePlan.Rect(x: 10, y: 10, width: 10, height: 10))
        trim.measuresEuclideanDistance = true
        #expect(TrimBorder(trim: trim).area(in: pixels) == ResizePlan.Rect(x: 5, y: 5, width: 20, height: 20))
        let request = try? ThumborURLParser().parse(path: "/unsafe/trim:top-left:12/example.com/a.jpg")
        #expect(request.map { ThumborMapping($0).options.trim?.measuresEuclideanDistance } == true)
    }
}
