import Testing
import WebImageKit
@testable import WebImageServer

/// The smart gravity's choice of area, without the rest of the pipeline.
@Suite struct SmartCropTests {
    @Test func theAreaWithTheMostEdgesWinsAnywhereInTheImage() {
        // A 40×40 patch of detail in a flat 400×300 image, at three places.
        for (px, py) in [(20, 30), (300, 200), (180, 10)] {
            let image = SyntheticImages.detail(width: 400, height: 300) { x, y in x >= px && x < px + 40 && y >= py && y < py + 40 }
            let window = SmartCrop.window(PixelSize(width: 60, height: 60), in: image)
            #expect(window.width == 60 && window.height == 60)
            #expect(window.x <= px && window.x + 60 >= px + 40, "patch at \(px), window x \(window.x)")
            #expect(window.y <= py && window.y + 60 >= py + 40, "patch at \(py), window y \(window.y)")
        }
    }

    @Test func aFlatImageIsCutInTheMiddle() {
        let flat = PixelBuffer(width: 301, height: 100, fill: SyntheticImages.grey)
        #expect(SmartCrop.window(PixelSize(width: 101, height: 100), in: flat) == ResizePlan.Rect(x: 100, y: 0, width: 101, height: 100))
    }

    @Test func transparentAreasCountAsFlat() {
        // Detail on the left, but transparent; opaque detail on the right.
        let image = SyntheticImages.pattern(width: 200, height: 50) { x, y in
            let checker: RGBA = (x / 4 + y / 4).isMultiple(of: 2) ? .black : .white
            if x < 60 { return RGBA(red: checker.red, green: checker.green, blue: checker.blue, alpha: 0) }
            return x >= 140 ? checker : SyntheticImages.grey
        }
        #expect(SmartCrop.window(PixelSize(width: 50, height: 50), in: image).x >= 140)
    }

    @Test func anAreaAsLargeAsTheImageIsTheImage() {
        let image = PixelBuffer.samplePattern(width: 30, height: 20)
        #expect(SmartCrop.window(PixelSize(width: 40, height: 20), in: image) == ResizePlan.Rect(x: 0, y: 0, width: 30, height: 20))
    }
}
