import Testing
import WebImageKit
@testable import WebImageServer

/// imgproxy's processing options applied by ``ProcessingTransformer``, checked on the pixels of pictures
/// whose regions have distinct colours.
@Suite struct ProcessingTransformerTests {
    typealias Colors = SyntheticImages
    /// 200×100: top-left red, top-right green, bottom-left blue, bottom-right yellow.
    static let quadrants = SyntheticImages.quadrants(width: 200, height: 100)

    static func options(_ segments: String) throws -> ProcessingOptions {
        try ImgproxyURLParser().parse(path: "/_/\(segments)/plain/http://origin.test/image").options
    }

    /// `pixels`, as a source of `format`, processed by the options of the URL path `segments`.
    func transform(
        _ segments: String, _ pixels: PixelBuffer = quadrants, format: ImageFormat = .png, maximumPixelCount: Int = 10_000_000
    ) throws -> PixelBuffer {
        let transformer = ProcessingTransformer(options: try Self.options(segments), maximumPixelCount: maximumPixelCount)
        return try transformer.transform(Image(pixels: pixels, format: format)).pixels
    }

    /// Whether every pixel is close to `color`.
    func all(_ pixels: PixelBuffer, are color: RGBA) -> Bool {
        (0..<pixels.height).allSatisfy { y in (0..<pixels.width).allSatisfy { x in Colors.close(pixels[x, y], color) } }
    }

    @Test func cropHappensBeforeResize() throws {
        // The red quarter alone, then fitted: all red. Resizing first would keep all four colours.
        let cropped = try transform("c:100:50:nowe/rs:fit:50:50")
        #expect(cropped.size == PixelSize(width: 50, height: 25))
        #expect(all(cropped, are: Colors.red))
        let whole = try transform("rs:fit:50:50")
        #expect(Colors.close(whole[40, 5], Colors.green))
    }

    @Test func cropFractionsAreSharesOfTheImageAndTheGravityOptionPlacesThem() throws {
        let bottomRight = try transform("c:0.5:0.5/g:soea")
        #expect(bottomRight.size == PixelSize(width: 100, height: 50))
        #expect(all(bottomRight, are: Colors.yellow))
        #expect(all(try transform("g:soea/c:0.5:0.5:nowe"), are: Colors.red))  // the crop's own gravity wins
    }

    @Test func aCropSideLargerThanTheImageOrZeroKeepsTheWholeSide() throws {
        let bottom = try transform("c:500:50:so")
        #expect(bottom.size == PixelSize(width: 200, height: 50))
        #expect(Colors.close(bottom[10, 10], Colors.blue) && Colors.close(bottom[190, 40], Colors.yellow))
        #expect(try transform("c:0:25:no").size == PixelSize(width: 200, height: 25))
    }

    @Test func rotateTurnsClockwise() throws {
        let quarter = try transform("rot:90")
        #expect(quarter.size == PixelSize(width: 100, height: 200))
        // Clockwise: the left column becomes the top row, so the bottom-left (blue) comes to the top left.
        #expect(Colors.close(quarter[10, 10], Colors.blue) && Colors.close(quarter[90, 10], Colors.red))
        #expect(Colors.close(quarter[10, 190], Colors.yellow) && Colors.close(quarter[90, 190], Colors.green))
        let half = try transform("rot:180")
        #expect(Colors.close(half[10, 10], Colors.yellow) && Colors.close(half[190, 90], Colors.red))
        let threeQuarters = try transform("rot:-90")
        #expect(threeQuarters.size == PixelSize(width: 100, height: 200))
        #expect(Colors.close(threeQuarters[10, 10], Colors.green) && Colors.close(threeQuarters[10, 190], Colors.red))
    }

    @Test func requestedSizesAreMeasuredInTheRotatedImage() throws {
        #expect(try transform("rot:90/rs:fit:50:50").size == PixelSize(width: 25, height: 50))
        // Fill 50×50 of the turned 100×200 (scaled to 50×100), from its top: blue on the left, red on the right.
        let filled = try transform("rot:90/rs:fill:50:50/g:no")
        #expect(filled.size == PixelSize(width: 50, height: 50))
        #expect(Colors.close(filled[5, 40], Colors.blue) && Colors.close(filled[45, 40], Colors.red))
    }

    @Test func cropIsMeasuredInTheRotatedImage() throws {
        let topLeft = try transform("rot:90/c:50:100:nowe")
        #expect(topLeft.size == PixelSize(width: 50, height: 100))
        #expect(all(topLeft, are: Colors.blue))
        let bottomRight = try transform("rot:90/c:0.5:0.5:soea")
        #expect(bottomRight.size == PixelSize(width: 50, height: 100))
        #expect(all(bottomRight, are: Colors.green))
    }

    @Test func blurMixesColoursAcrossEdgesAndLeavesFlatAreas() throws {
        let blurred = try transform("bl:3")
        #expect(blurred.size == Self.quadrants.size)
        let edge = blurred[99, 25]  // red, next to green
        #expect(edge.red < 200 && edge.green > 20)
        #expect(Colors.close(blurred[20, 25], Colors.red, tolerance: 1))
    }

    @Test func aWideBlurStaysCloseToTheDirectGaussian() throws {
        // Above sigma 8 the blur runs on a shrunk image; compared with the direct Gaussian, within a few levels.
        let picture = SyntheticImages.quadrants(width: 80, height: 40)
        let wide = try WideBlur(sigma: 12).transform(pixels: picture)
        let direct = try ImageTransformers.Blur(radius: 12).transform(pixels: picture)
        #expect(wide.size == direct.size)
        var largest = 0
        for (a, b) in zip(wide.bytes, direct.bytes) { largest = max(largest, abs(Int(a) - Int(b))) }
        #expect(largest <= 8, "largest difference \(largest)")
        // However wide, the cost stays bounded and the result is the image's size and mean colour.
        let huge = try transform("bl:100000")
        #expect(huge.size == Self.quadrants.size)
        #expect(Colors.close(huge[0, 0], huge[199, 99], tolerance: 2))
    }

    @Test func aSharpenThatWouldCostTooMuchIsRefused() throws {
        #expect(throws: ImageProcessingError.self) { _ = try transform("sh:100000") }
        #expect(try transform("sh:5").size == Self.quadrants.size)
    }

    @Test func sharpenSteepensEdgesAndLeavesFlatAreas() throws {
        let step = SyntheticImages.pattern(width: 40, height: 10) { x, _ in
            x < 20 ? RGBA(red: 100, green: 100, blue: 100) : RGBA(red: 150, green: 150, blue: 150)
        }
        let sharpened = try transform("sh:1", step)
        #expect(sharpened[19, 5].red < 95 && sharpened[20, 5].red > 155)
        #expect(sharpened[5, 5] == step[5, 5] && sharpened[35, 5] == step[35, 5])
    }

    @Test func extendPadsToTheRequestedSizeWithTransparencyAtTheExtendGravity() throws {
        let red = PixelBuffer(width: 40, height: 20, fill: Colors.red)
        let north = try transform("rs:fit:100:100/ex:1:no", red)
        #expect(north.size == PixelSize(width: 100, height: 100) && north.hasAlpha)
        #expect(north[30, 0] == Colors.red && north[69, 19] == Colors.red)
        #expect(north[29, 0].alpha == 0 && north[70, 0].alpha == 0 && north[50, 20].alpha == 0)
        let centre = try transform("w:100/h:100/ex:1", red)
        #expect(centre[30, 40] == Colors.red && centre[30, 39].alpha == 0 && centre[69, 59] == Colors.red)
        // South-east, 5 pixels from the right edge and 10 from the bottom.
        let corner = try transform("w:100/h:100/ex:1:soea:5:10", red)
        #expect(corner[55, 70] == Colors.red && corner[94, 89] == Colors.red)
        #expect(corner[54, 70].alpha == 0 && corner[95, 89].alpha == 0 && corner[94, 90].alpha == 0)
        // No padding when the image already fills the requested size.
        #expect(try transform("rs:fill:20:20/ex:1", red).size == PixelSize(width: 20, height: 20))
    }

    @Test func anExtendedJPEGIsPaddedWithWhiteUnlessTheOutputKeepsAlpha() throws {
        let red = PixelBuffer(width: 40, height: 20, fill: Colors.red)
        let jpeg = try transform("w:100/h:100/ex:1", red, format: .jpeg)
        #expect(!jpeg.hasAlpha && jpeg[5, 5] == .white && jpeg[50, 50] == Colors.red)
        #expect(try transform("w:100/h:100/ex:1/f:png", red, format: .jpeg)[5, 5].alpha == 0)
        #expect(try transform("w:100/h:100/ex:1/f:jpg", red, format: .png)[5, 5] == .white)
    }

    @Test func backgroundFlattensTransparencyWhateverTheFormat() throws {
        let halfGreen = PixelBuffer(width: 20, height: 20, fill: RGBA(red: 0, green: 200, blue: 0, alpha: 128))
        let onRed = try transform("bg:ff0000", halfGreen)
        #expect(!onRed.hasAlpha)
        #expect(Colors.close(onRed[10, 10], RGBA(red: 127, green: 100, blue: 0), tolerance: 1))
        let padded = try transform("w:40/h:20/ex:1:we/bg:0:0:255", halfGreen)
        #expect(padded[30, 10] == RGBA(red: 0, green: 0, blue: 255) && !padded.hasAlpha)
        // Without a background, a JPEG output is flattened onto white.
        #expect(Colors.close(try transform("f:jpg", halfGreen)[10, 10], RGBA(red: 127, green: 227, blue: 127), tolerance: 1))
        #expect(try transform("f:png", halfGreen) == halfGreen)
    }

    @Test func theOutputFormatDecidedBeforeTheTransformDecidesTheFlattening() throws {
        let halfGreen = Image(pixels: PixelBuffer(width: 4, height: 4, fill: RGBA(red: 0, green: 200, blue: 0, alpha: 128)), format: .png)
        let plain = try Self.options("w:10")
        let asJPEG = ProcessingTransformer(options: plain, maximumPixelCount: 1000, outputFormat: .jpeg)
        #expect(try asJPEG.transform(halfGreen).pixels[1, 1] == RGBA(red: 127, green: 227, blue: 127))
        let asWebP = ProcessingTransformer(options: plain, maximumPixelCount: 1000, outputFormat: .webp)
        #expect(try asWebP.transform(halfGreen).pixels[1, 1] == RGBA(red: 0, green: 200, blue: 0, alpha: 128))
        let onBlue = try ProcessingTransformer(options: Self.options("bg:00f"), maximumPixelCount: 1000, outputFormat: .webp).transform(halfGreen)
        #expect(!onBlue.hasAlpha && onBlue.pixels[1, 1] == RGBA(red: 0, green: 100, blue: 127))
    }

    @Test func extendRefusesACanvasOverThePixelLimitBeforeAllocatingIt() throws {
        let small = PixelBuffer(width: 40, height: 20, fill: Colors.red)
        for segments in ["w:1000/h:1000/ex:1", "w:2000000000/h:2000000000/ex:1"] {
            #expect(throws: ImageProcessingError.self, "\(segments)") {
                _ = try transform(segments, small, maximumPixelCount: 5000)
            }
        }
        #expect(try transform("w:100/h:50/ex:1", small, maximumPixelCount: 5000).size == PixelSize(width: 100, height: 50))
        for segments in ["w:9223372036854775807/dpr:1e300/el:1", "w:9223372036854775807/h:9223372036854775807/dpr:1e300/ex:1"] {
            #expect(throws: ImageProcessingError.self, "\(segments)") { _ = try transform(segments, small) }
        }
    }

    @Test func smartGravityPicksTheDetailedRegion() throws {
        // Detail in the right 120 columns: a 100×100 smart crop takes (almost) only detail, where the
        // centre would take only grey.
        let right = SyntheticImages.detail(width: 300, height: 100) { x, _ in x >= 180 }
        let smart = try transform("c:100:100:sm", right)
        #expect(greyShare(smart) < 0.05, "grey share \(greyShare(smart))")
        #expect(greyShare(try transform("c:100:100", right)) > 0.7)
        // The same for the crop of a fill, here with the detail on the left.
        let left = SyntheticImages.detail(width: 300, height: 100) { x, _ in x < 120 }
        let filled = try transform("rs:fill:100:100/g:sm", left)
        #expect(filled.size == PixelSize(width: 100, height: 100))
        #expect(greyShare(filled) < 0.05, "grey share \(greyShare(filled))")
        #expect(greyShare(try transform("rs:fill:100:100", left)) > 0.7)
    }

    /// The share of pixels that are the flat grey of ``SyntheticImages/detail(width:height:detailed:)``.
    func greyShare(_ pixels: PixelBuffer) -> Double {
        var grey = 0
        for y in 0..<pixels.height { for x in 0..<pixels.width where Colors.close(pixels[x, y], Colors.grey, tolerance: 20) { grey += 1 } }
        return Double(grey) / Double(pixels.width * pixels.height)
    }

    @Test func theResultKeyChangesWithEveryOptionThatChangesTheBytesAndOnlyWithThose() throws {
        let variants = ["w:100", "w:100/c:50", "w:100/c:50:0:so", "w:100/ex:1", "w:100/ex:1:no", "w:100/bl:2", "w:100/sh:2",
                        "w:100/rot:90", "w:100/bg:fff", "w:100/f:jpg", "w:100/f:png", "w:100/f:webp", "w:100/g:sm", "w:100/dpr:2",
                        "w:100/q:50", "w:100/cb:1"]
        let key = { (segments: String) in
            ImageJob.key(source: "http://origin.test/image", options: try Self.options(segments))
        }
        let keys = try variants.map(key)
        #expect(Set(keys).count == variants.count)
        // The file name, attachment and preset names do not change the bytes.
        #expect(try key("w:100/fn:photo/att:1") == key("w:100"))
    }
}
