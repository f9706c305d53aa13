import Foundation
import Testing
import WebImageKit
@testable import WebImageServer

/// imgproxy's resizing types as sizes and crops, without pixels.
@Suite struct ResizePlanTests {
    static let landscape = PixelSize(width: 2000, height: 1000)

    func plan(_ type: ResizingType, _ width: Int, _ height: Int, enlarge: Bool = false, dpr: Double = 1, source: PixelSize = landscape) -> ResizePlan {
        var options = ProcessingOptions()
        options.resizingType = type
        options.width = width
        options.height = height
        options.enlarge = enlarge
        options.dpr = dpr
        return ResizePlan(source: source, options: options)
    }

    @Test func fitKeepsTheAspectInsideTheBoxAndAZeroSideFollowsTheOther() {
        #expect(plan(.fit, 100, 100).scaledSize == PixelSize(width: 100, height: 50))
        #expect(plan(.fit, 0, 100).scaledSize == PixelSize(width: 200, height: 100))
        #expect(plan(.fit, 0, 0).scaledSize == Self.landscape)
        #expect(plan(.fit, 100, 100).crop == nil)
    }

    @Test func nothingIsEnlargedUnlessEnlargeIsSet() {
        #expect(plan(.fit, 4000, 4000).scaledSize == Self.landscape)
        #expect(plan(.fit, 4000, 4000, enlarge: true).scaledSize == PixelSize(width: 4000, height: 2000))
        #expect(plan(.force, 4000, 500).scaledSize == PixelSize(width: 2000, height: 500))
    }

    @Test func dprMultipliesTheRequestedSize() {
        #expect(plan(.fit, 100, 100, dpr: 2).scaledSize == PixelSize(width: 200, height: 100))
    }

    @Test func fillCoversTheBoxAndCropsTheRestAroundTheCentre() {
        let fill = plan(.fill, 100, 100)
        #expect(fill.scaledSize == PixelSize(width: 200, height: 100))
        #expect(fill.crop == ResizePlan.Rect(x: 50, y: 0, width: 100, height: 100))
    }

    @Test func fillOfASmallerSourceCropsWithoutEnlargingAndFillDownKeepsTheRequestedAspect() {
        let source = PixelSize(width: 300, height: 200)
        #expect(plan(.fill, 400, 100, source: source).crop == ResizePlan.Rect(x: 0, y: 50, width: 300, height: 100))
        // fill-down: 400×100 is 4:1, so the 300×200 source gives 300×75.
        #expect(plan(.fillDown, 400, 100, source: source).crop == ResizePlan.Rect(x: 0, y: 62, width: 300, height: 75))
    }

    @Test func forceIgnoresTheAspect() {
        #expect(plan(.force, 100, 100).scaledSize == PixelSize(width: 100, height: 100))
    }

    @Test func autoFillsWhenTheOrientationsMatchAndFitsOtherwise() {
        #expect(plan(.auto, 200, 100).crop == nil)  // same aspect: fill without anything to cut
        #expect(plan(.auto, 300, 100).crop != nil)
        #expect(plan(.auto, 100, 300).scaledSize == PixelSize(width: 100, height: 50))
    }

    @Test func gravityPlacesTheCropAtEdgesCornersOffsetsAndFocusPoints() {
        let area = PixelSize(width: 100, height: 100), image = PixelSize(width: 300, height: 200)
        #expect(ResizePlan.origin(of: area, in: image, gravity: Gravity(.west)) == (0, 50))
        #expect(ResizePlan.origin(of: area, in: image, gravity: Gravity(.southEast)) == (200, 100))
        #expect(ResizePlan.origin(of: area, in: image, gravity: Gravity(.north, xOffset: 10, yOffset: 5)) == (110, 5))
        #expect(ResizePlan.origin(of: area, in: image, gravity: Gravity(.focusPoint, xOffset: 0, yOffset: 1)) == (0, 100))
    }

    @Test func absurdSizesAreClampedAboveTheLimitInsteadOfTrapping() {
        for type in ResizingType.allCases {
            let plan = plan(type, Int.max, Int.max, enlarge: true, dpr: 1e300)
            #expect(plan.scaledSize.width > PixelBuffer.maximumSide, "\(type)")
        }
        #expect(plan(.fit, Int.max, 0, dpr: 1e300).scaledSize == Self.landscape)
    }

    @Test func aCoverDecodeOfALargeJPEGIsShrunkButStillCoversTheBox() throws {
        let jpeg = try ImageCodersManager.shared.encode(Image(pixels: PixelBuffer(width: 1600, height: 800)), as: .jpeg, options: .init())
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 100, height: 100), thumbnailMode: .fill)
        let image = try ImageCodersManager.shared.decode(jpeg, options: options)
        #expect(image.pixelSize == PixelSize(width: 200, height: 100))
    }
}
