import Testing
import WebImageCore

/// Transformers that can enlarge an image refuse a result over their pixel limit before allocating it.
@Suite struct TransformerPixelLimitTests {
    static let small = PixelBuffer(width: 10, height: 10, fill: .white)

    static let refused: [(String, any ImageTransforming)] = [
        ("fit upscale", ImageTransformers.Resize(size: PixelSize(width: 100_000, height: 100_000), mode: .fit, upscale: true)),
        ("stretch upscale", ImageTransformers.Resize(size: PixelSize(width: 50_000, height: 50_000), mode: .stretch, upscale: true)),
        ("fill upscale", ImageTransformers.Resize(size: PixelSize(width: 20_000, height: 20_000), mode: .fill, upscale: true)),
        ("fill with an overflowing intermediate",
         ImageTransformers.Resize(size: PixelSize(width: 1, height: Int.max / 2), mode: .fill, upscale: true)),
        ("small limit", ImageTransformers.Resize(size: PixelSize(width: 20, height: 20), upscale: true, maximumPixelCount: 399)),
        ("free rotation", ImageTransformers.Rotate(degrees: 45, maximumPixelCount: 150)),
    ]

    @Test(arguments: 0..<refused.count)
    func aResultOverTheLimitFailsWithOutputTooLarge(_ index: Int) throws {
        let (_, transformer) = Self.refused[index]
        #expect {
            _ = try transformer.transform(pixels: Self.small)
        } throws: { error in
            (error as? ImageProcessingError)?.code == .outputTooLarge
        }
    }

    @Test func aResultAtTheLimitIsMade() throws {
        let resize = ImageTransformers.Resize(size: PixelSize(width: 20, height: 20), upscale: true, maximumPixelCount: 400)
        #expect(try resize.transform(pixels: Self.small).size == PixelSize(width: 20, height: 20))
    }
}
