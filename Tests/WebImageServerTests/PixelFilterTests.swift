import Testing
import WebImageKit
@testable import WebImageServer

/// The test pictures of the thumbor filter vectors, computed from the same formulas as
/// scripts/thumbor-filter-vectors.py.
enum SyntheticFilterImages {
    static let width = 10, height = 8

    /// The opaque picture's colour at (x, y): three unrelated ramps, so every channel varies.
    static func colour(_ x: Int, _ y: Int) -> RGBA {
        RGBA(red: UInt8((x * 23 + y * 7) % 256), green: UInt8((x * 11 + y * 29 + 40) % 256), blue: UInt8((x * x + y * 13 + 90) % 256))
    }

    /// 10×8, opaque.
    static let opaque = SyntheticImages.pattern(width: width, height: height) { colour($0, $1) }

    /// The same colours with an alpha ramp that holds 0 and 255.
    static let alpha = SyntheticImages.pattern(width: width, height: height) { x, y in
        var pixel = colour(x, y)
        pixel.alpha = UInt8(min(255, max(0, x * 40 + y * 20 - 60)))
        return pixel
    }

    /// The gradient formulas over 64×48 (wrapping at 256), opaque: for the digest vectors.
    static let large = SyntheticImages.pattern(width: 64, height: 48) { colour($0, $1) }

    /// The opaque picture with red held at 0.
    static let flatRed = SyntheticImages.pattern(width: width, height: height) { x, y in
        var pixel = colour(x, y)
        pixel.red = 0
        return pixel
    }

    /// The opaque picture with blue held at 77.
    static let flatBlue = SyntheticImages.pattern(width: width, height: height) { x, y in
        var pixel = colour(x, y)
        pixel.blue = 77
        return pixel
    }
}

/// thumbor's pixel filters (``PixelFilter``), each checked against thumbor 7.8's own result on the same
/// picture (``ThumborFilterVectors``), plus their edge cases.
///
/// Tolerances: 0 levels where the filter is a port of thumbor's integer or `Float` arithmetic (the same
/// operations in the same order give the same bytes); 1 level for convolutions, whose sums we truncate after
/// adding 10⁻⁹ where thumbor truncates the bare floating sum (a sum that is a whole number in exact arithmetic
/// can land one level lower in thumbor's); 2 levels for `fill(blur)` (1 measured), whose stretch to the canvas is our
/// Lanczos-3 resampler (in premultiplied `Float`) where thumbor's is Pillow's (fixed-point).
@Suite struct PixelFilterTests {
    typealias Images = SyntheticFilterImages
    typealias Vectors = ThumborFilterVectors

    /// `filters` applied by the transformer with no other option.
    func filtered(_ pixels: PixelBuffer, _ filters: [PixelFilter], width: Int = 0, height: Int = 0, maximumPixelCount: Int = 1_000_000) throws -> PixelBuffer {
        var options = ProcessingOptions()
        options.pixelFilters = filters
        options.width = width
        options.height = height
        let transformer = ProcessingTransformer(options: options, maximumPixelCount: maximumPixelCount)
        return try transformer.applyPixelFilters(pixels)
    }

    /// The bytes of a vector's hex string.
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).map { $0 <= 57 ? $0 - 48 : $0 - 87 }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// The largest difference between `pixels` and thumbor's `hex`, over the first `channels` of each pixel;
    /// nil when the sizes differ.
    static func largestDifference(_ pixels: PixelBuffer, _ hex: String, channels: Int = 4) -> Int? {
        let expected = bytes(hex)
        guard expected.count == pixels.bytes.count else { return nil }
        return zip(pixels.bytes, expected).enumerated().filter { $0.offset % 4 < channels }
            .map { abs(Int($0.element.0) - Int($0.element.1)) }.max()
    }

    /// Expects `pixels` within `tolerance` of thumbor's result in every byte (every colour byte for `channels` 3).
    func expect(_ pixels: PixelBuffer, matches hex: String, tolerance: Int = 0, channels: Int = 4, sourceLocation: SourceLocation = #_sourceLocation) {
        let difference = Self.largestDifference(pixels, hex, channels: channels)
        #expect(difference != nil && difference! <= tolerance, "largest difference from thumbor: \(String(describing: difference))",
                sourceLocation: sourceLocation)
    }

    // MARK: thumbor's results

    @Test func brightnessAddsThumborsShiftToEachChannel() throws {
        expect(try filtered(Images.opaque, [.brightness(40)]), matches: Vectors.brightness40)
        expect(try filtered(Images.opaque, [.brightness(-30)]), matches: Vectors.brightnessMinus30)
    }

    @Test func brightnessKeepsAlpha() throws {
        let result = try filtered(Images.alpha, [.brightness(40)])
        expect(result, matches: Vectors.brightness40OnAlpha)
        #expect((0..<result.height).allSatisfy { y in (0..<result.width).allSatisfy { result[$0, y].alpha == Images.alpha[$0, y].alpha } })
    }

    @Test func contrastScalesTheDistanceFromMidGreyAsThumborDoes() throws {
        expect(try filtered(Images.opaque, [.contrast(50)]), matches: Vectors.contrast50)
        expect(try filtered(Images.opaque, [.contrast(-60)]), matches: Vectors.contrastMinus60)
    }

    @Test func saturationMovesColoursFromTheirBrightnessAsThumborDoes() throws {
        expect(try filtered(Images.opaque, [.saturation(1.8)]), matches: Vectors.saturation1_8)
        expect(try filtered(Images.opaque, [.saturation(0.3)]), matches: Vectors.saturation0_3)
    }

    @Test func rgbShiftsEachChannelByItsOwnAmount() throws {
        expect(try filtered(Images.opaque, [.rgb(red: 20, green: -10, blue: 35)]), matches: Vectors.rgb20Minus10_35)
    }

    @Test func grayscaleIsPillowsLumaAndKeepsAlpha() throws {
        expect(try filtered(Images.opaque, [.grayscale]), matches: Vectors.grayscale)
        expect(try filtered(Images.alpha, [.grayscale]), matches: Vectors.grayscaleOnAlpha)
    }

    @Test func equalizeSpreadsEachChannelsHistogramWithThumborsQuirks() throws {
        expect(try filtered(Images.opaque, [.equalize]), matches: Vectors.equalize)
        // Blue's only level is above the first level of red or green: thumbor's search leaves its minimum at 0.
        expect(try filtered(Images.flatBlue, [.equalize]), matches: Vectors.equalizeFlatBlue)
        // Red's only level is the first of all: its minimum is found and thumbor divides 0 by 0, storing 0.
        expect(try filtered(Images.flatRed, [.equalize]), matches: Vectors.equalizeFlatRedZero)
    }

    @Test func noiseIsThumborsForTheSameSeed() throws {
        expect(try filtered(Images.opaque, [.noise(amount: 40, seed: 7)]), matches: Vectors.noise40Seed7)
        expect(try filtered(Images.opaque, [.noise(amount: 30, seed: 1)]), matches: Vectors.noise30Seed1)
    }

    @Test func noiseWithoutASeedIsGlibcsDefaultSeedSoItCanBeCached() throws {
        let unseeded = try filtered(Images.opaque, [.noise(amount: 30, seed: 0)])
        expect(unseeded, matches: Vectors.noise30Seed1)
        #expect(try filtered(Images.opaque, [.noise(amount: 30, seed: 0)]) == unseeded)
        #expect(try filtered(Images.opaque, [.noise(amount: 30, seed: 2)]) != unseeded)
    }

    @Test func glibcRandomGivesGlibcsSequence() {
        // random() after srandom(1), or without srandom, in any C program on glibc.
        var random = GlibcRandom(seed: 1)
        #expect((0..<5).map { _ in random.next() } == [1_804_289_383, 846_930_886, 1_681_692_777, 1_714_636_915, 1_957_747_793])
    }

    @Test func roundCornerPaintsThumborsCornersWithTheColour() throws {
        let corner = PixelFilter.RoundCorner(horizontalRadius: 3, verticalRadius: 2, color: RGBColor(red: 255, green: 0, blue: 0), transparent: false)
        let result = try filtered(Images.opaque, [.roundCorner(corner)])
        expect(result, matches: Vectors.roundCorner3x2Red)
        #expect(result[0, 0] == RGBA(red: 255, green: 0, blue: 0))
        #expect(result[5, 4] == Images.opaque[5, 4])
    }

    @Test func transparentRoundCornersClearAlphaAsThumborDoes() throws {
        let corner = PixelFilter.RoundCorner(horizontalRadius: 4, verticalRadius: 4, color: RGBColor(red: 10, green: 20, blue: 30), transparent: true)
        let opaque = try filtered(Images.opaque, [.roundCorner(corner)])
        expect(opaque, matches: Vectors.roundCorner4Transparent)
        #expect(opaque.hasAlpha && opaque[0, 0].alpha == 0 && opaque[5, 4].alpha == 255)
        expect(try filtered(Images.alpha, [.roundCorner(corner)]), matches: Vectors.roundCorner4TransparentOnAlpha)
    }

    @Test func convolutionIsThumborsForNormalisedAndRawKernels() throws {
        let blur = PixelFilter.Convolution(items: [1, 2, 1, 2, 4, 2, 1, 2, 1], columns: 3, normalize: true)
        expect(try filtered(Images.opaque, [.convolution(blur)]), matches: Vectors.convolutionBlur3x3, tolerance: 1)
        let edges = PixelFilter.Convolution(items: [-1, -1, -1, -1, 8, -1, -1, -1, -1], columns: 3, normalize: false)
        expect(try filtered(Images.opaque, [.convolution(edges)]), matches: Vectors.convolutionEdge3x3, tolerance: 1)
        let wide = PixelFilter.Convolution(items: [1, 0, 2, 0, 1, 0, 3, 5, 3, 0, 1, 0, 2, 0, 1], columns: 5, normalize: true)
        expect(try filtered(Images.opaque, [.convolution(wide)]), matches: Vectors.convolution5x3, tolerance: 1)
    }

    @Test func fillAutoCentresTheImageOnItsAverageColour() throws {
        let canvas = PixelSize(width: 14, height: 12)
        let result = FillCanvas(fill: .init(background: .average), canvas: canvas).apply(to: Images.opaque)
        expect(result, matches: Vectors.fillAuto)
        #expect(result[0, 0] == RGBA(red: 0x7C, green: 0x88, blue: 0xA0) && !result.hasAlpha)
        #expect(result[2, 2] == Images.opaque[0, 0])
    }

    @Test func fillAutoReplacesTheCanvasWithTransparentPixelsUnlessMerging() throws {
        let canvas = PixelSize(width: 14, height: 12)
        let replaced = FillCanvas(fill: .init(background: .average), canvas: canvas).apply(to: Images.alpha)
        expect(replaced, matches: Vectors.fillAutoOnAlpha)
        #expect(replaced.hasAlpha && replaced[2, 2].alpha == 0)
        let merged = FillCanvas(fill: .init(background: .average, mergesTransparency: true), canvas: canvas).apply(to: Images.alpha)
        expect(merged, matches: Vectors.fillAutoMergedOnAlpha)
        #expect(!merged.hasAlpha && merged[2, 2] == RGBA(red: 0x7C, green: 0x88, blue: 0xA0))
    }

    @Test func fillCanvasIsTheRequestedSizeOrTheImagesSideAsInThumbor() throws {
        let auto = PixelFilter.fill(.init(background: .average))
        expect(try filtered(Images.opaque, [auto], width: 6, height: 4), matches: Vectors.fillAutoOnSmallerCanvas)
        expect(try filtered(Images.opaque, [auto], width: 13, height: 0), matches: Vectors.fillAutoWithoutHeight)
    }

    /// The 64-bit FNV-1a hash of the pixels' bytes, as the vector script computes it.
    static func digest(_ pixels: PixelBuffer) -> UInt64 {
        pixels.bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    @Test(arguments: [
        ("round_corner(20|12,0,128,255)", PixelFilter.roundCorner(.init(horizontalRadius: 20, verticalRadius: 12, color: RGBColor(red: 0, green: 128, blue: 255), transparent: false))),
        ("round_corner(7|30,40,50,60,1)", .roundCorner(.init(horizontalRadius: 7, verticalRadius: 30, color: RGBColor(red: 40, green: 50, blue: 60), transparent: true))),
        ("round_corner(31,200,100,0)", .roundCorner(.init(horizontalRadius: 31, verticalRadius: 31, color: RGBColor(red: 200, green: 100, blue: 0), transparent: false))),
        ("round_corner(1|1,9,9,9)", .roundCorner(.init(horizontalRadius: 1, verticalRadius: 1, color: RGBColor(red: 9, green: 9, blue: 9), transparent: false))),
        ("noise(70,12345)", .noise(amount: 70, seed: 12345)),
        ("equalize()", .equalize),
        ("saturation(2.5)", .saturation(2.5)),
        ("contrast(80)", .contrast(80)),
        ("grayscale()", .grayscale),
    ])
    func exactPortsGiveThumborsBytesOnALargerPicture(_ url: String, _ filter: PixelFilter) throws {
        let expected = try #require(Vectors.digests[url])
        #expect(Self.digest(try filtered(Images.large, [filter])) == expected)
    }

    @Test func fillBlurStretchesThumborsBlurUnderTheImage() throws {
        let result = FillCanvas(fill: .init(background: .blur), canvas: PixelSize(width: 14, height: 12)).apply(to: Images.opaque)
        // thumbor's blurred canvas has alpha 254 (its convolution truncates 255 × a sum just under 1): colour only.
        expect(result, matches: Vectors.fillBlur, tolerance: 2, channels: 3)
        #expect(!result.hasAlpha && result[0, 0].alpha == 255)
        #expect(result[2, 2] == Images.opaque[0, 0])
    }

    @Test func filtersApplyInTheirOrder() throws {
        expect(try filtered(Images.opaque, [.brightness(20), .contrast(30)]), matches: Vectors.brightnessThenContrast)
        expect(try filtered(Images.opaque, [.contrast(30), .brightness(20)]), matches: Vectors.contrastThenBrightness)
    }
}

/// The pixel filters' edge cases: amounts that change nothing, bounds, alpha, cost limits and their place in
/// the transformer.
@Suite struct PixelFilterEdgeTests {
    typealias Images = SyntheticFilterImages

    func filtered(_ pixels: PixelBuffer, _ filters: [PixelFilter], width: Int = 0, height: Int = 0, maximumPixelCount: Int = 1_000_000) throws -> PixelBuffer {
        try PixelFilterTests().filtered(pixels, filters, width: width, height: height, maximumPixelCount: maximumPixelCount)
    }

    @Test func zeroAmountsChangeNothing() throws {
        let identities: [PixelFilter] = [
            .brightness(0), .contrast(0), .rgb(red: 0, green: 0, blue: 0), .saturation(1), .noise(amount: 0, seed: 5),
            .roundCorner(.init(horizontalRadius: 0, verticalRadius: 3, color: RGBColor(red: 1, green: 2, blue: 3), transparent: true)),
        ]
        for filter in identities {
            #expect(try filtered(Images.alpha, [filter]) == Images.alpha, "\(filter)")
        }
    }

    @Test func identityKernelKeepsEveryVisiblePixel() throws {
        let identity = PixelFilter.convolution(.init(items: [0, 0, 0, 0, 1, 0, 0, 0, 0], columns: 3, normalize: false))
        #expect(try filtered(Images.opaque, [identity]) == Images.opaque)
        // Premultiplied, a fully transparent pixel has no colour left: it comes back transparent black.
        let result = try filtered(Images.alpha, [identity])
        for y in 0..<result.height {
            for x in 0..<result.width {
                let pixel = Images.alpha[x, y]
                #expect(result[x, y] == (pixel.alpha == 0 ? .transparent : pixel))
            }
        }
    }

    @Test func fullAmountsReachTheEnds() throws {
        #expect(try filtered(Images.opaque, [.brightness(100)]).bytes.enumerated().allSatisfy { $0.element == 255 })
        let grey = try filtered(Images.opaque, [.contrast(-100)])
        #expect((0..<grey.width).allSatisfy { grey[$0, 3] == RGBA(red: 128, green: 128, blue: 128) })
        let unsaturated = try filtered(Images.opaque, [.saturation(0)])
        #expect((0..<unsaturated.width).allSatisfy { unsaturated[$0, 5].red == unsaturated[$0, 5].green && unsaturated[$0, 5].green == unsaturated[$0, 5].blue })
    }

    @Test func argumentsOutOfRangeAreRefusedWithATypedError() throws {
        let refused: [PixelFilter] = [
            .brightness(101), .contrast(-101), .rgb(red: 0, green: 101, blue: 0), .saturation(.nan), .saturation(.infinity), .saturation(1e300),
            .noise(amount: 101, seed: 0), .noise(amount: -1, seed: 0),
            .roundCorner(.init(horizontalRadius: -1, verticalRadius: 2, color: RGBColor(red: 0, green: 0, blue: 0), transparent: false)),
            .convolution(.init(items: [Double](repeating: 1, count: 11), columns: 11, normalize: true)),
            .convolution(.init(items: [1, 1, 1, 1], columns: 2, normalize: true)),
            .convolution(.init(items: [1, 1, 1, 1, 1], columns: 3, normalize: true)),
            .convolution(.init(items: [1, 1, 1], columns: 0, normalize: true)),
            .convolution(.init(items: [1, .nan, 1], columns: 3, normalize: true)),
            .convolution(.init(items: [Double](repeating: 1, count: 11), columns: 1, normalize: true)),
        ]
        for filter in refused {
            #expect(throws: ImageProcessingError.self, "\(filter)") { try filter.validate() }
            #expect(throws: ImageProcessingError.self, "\(filter)") { try filtered(Images.opaque, [filter]) }
        }
        try PixelFilter.convolution(.init(items: [Double](repeating: 1, count: 81), columns: 9, normalize: true)).validate()
    }

    @Test func roundCornerRadiiAreClampedToHalfTheSides() throws {
        let corner = PixelFilter.RoundCorner(horizontalRadius: 500, verticalRadius: 500, color: RGBColor(red: 0, green: 0, blue: 255), transparent: false)
        let result = try filtered(Images.opaque, [.roundCorner(corner)])
        #expect(result[0, 0] == RGBA(red: 0, green: 0, blue: 255))
        #expect(result[5, 4] == Images.opaque[5, 4])
        let tiny = SyntheticImages.pattern(width: 1, height: 1) { _, _ in .white }
        #expect(try filtered(tiny, [.roundCorner(corner)]) == tiny)
    }

    @Test func convolutionOfTransparentPixelsDoesNotBleedTheirColour() throws {
        // Opaque red on the left, fully transparent green on the right: a blur across the edge keeps it red.
        let pixels = SyntheticImages.pattern(width: 8, height: 4) { x, _ in x < 4 ? RGBA(red: 200, green: 0, blue: 0) : RGBA(red: 0, green: 255, blue: 0, alpha: 0) }
        let blur = PixelFilter.Convolution(items: [1, 1, 1, 1, 1, 1, 1, 1, 1], columns: 3, normalize: true)
        let result = try filtered(pixels, [.convolution(blur)])
        #expect(result[4, 1].alpha == 85 && result[3, 1].alpha == 170)
        #expect(result[4, 1].red == 200 && result[4, 1].green == 0)
        #expect(result[0, 1] == RGBA(red: 200, green: 0, blue: 0))
    }

    @Test func fillPadsToTheRequestedSizeAndTakesTheImagesSideWhenNoneIsRequested() throws {
        let padded = try filtered(Images.opaque, [.fill(.init(background: .average))], width: 30, height: 0)
        #expect(padded.size == PixelSize(width: 30, height: 8))
        #expect(padded[10, 0] == Images.opaque[0, 0])
    }

    @Test func fillCanvasOverThePixelLimitIsRefusedBeforeItIsAllocated() throws {
        #expect(throws: ImageProcessingError.self) {
            try filtered(Images.opaque, [.fill(.init(background: .blur))], width: 1000, height: 1000, maximumPixelCount: 500_000)
        }
    }

    @Test func fillSmallerThanTheImageCutsItAroundTheCentre() throws {
        let cut = FillCanvas(fill: .init(background: .average), canvas: PixelSize(width: 6, height: 4)).apply(to: Images.opaque)
        #expect(cut.size == PixelSize(width: 6, height: 4))
        #expect(cut[0, 0] == Images.opaque[2, 2])
    }

    @Test func fillBlurOfALargeImageStaysCloseToTheFullSizeBlur() throws {
        let pixels = SyntheticImages.pattern(width: 120, height: 90) { x, y in
            RGBA(red: UInt8(x * 2), green: UInt8((x + y) % 256), blue: UInt8(255 - y * 2))
        }
        let canvas = PixelSize(width: 160, height: 120)
        let full = FillBlurBackground(directPixelLimit: 1_000_000).background(for: pixels, canvas: canvas)
        let reduced = FillBlurBackground(directPixelLimit: 2_000).background(for: pixels, canvas: canvas)
        let difference = zip(full.bytes, reduced.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(reduced.size == canvas && difference <= 3, "largest difference \(difference)")
    }

    @Test func filtersAndTheirArgumentsArePartOfTheResultKey() {
        var seven = ProcessingOptions(), eight = ProcessingOptions(), none = ProcessingOptions()
        seven.pixelFilters = [.noise(amount: 20, seed: 7)]
        eight.pixelFilters = [.noise(amount: 20, seed: 8)]
        let keys = [seven, eight, none].map { ImageJob.key(source: "http://origin.test/a.png", options: $0) }
        #expect(Set(keys).count == 3)
        var reordered = ProcessingOptions(), ordered = ProcessingOptions()
        ordered.pixelFilters = [.brightness(10), .contrast(10)]
        reordered.pixelFilters = [.contrast(10), .brightness(10)]
        #expect(ImageJob.key(source: "s", options: ordered) != ImageJob.key(source: "s", options: reordered))
    }

    @Test func transformerAppliesFiltersAfterTheResize() throws {
        var options = ProcessingOptions()
        options.width = 5
        options.pixelFilters = [.grayscale, .fill(.init(background: .average))]
        options.height = 8
        let transformer = ProcessingTransformer(options: options, maximumPixelCount: 1_000_000)
        let result = try transformer.transform(pixels: Images.opaque, flattenOnto: nil)
        // Fitted into 5×8 (5×4), then grey, then centred on a 5×8 canvas of its average grey.
        #expect(result.size == PixelSize(width: 5, height: 8))
        #expect((0..<8).allSatisfy { result[2, $0].red == result[2, $0].green && result[2, $0].green == result[2, $0].blue })
        #expect(result[0, 0] == result[4, 7])
    }
}
