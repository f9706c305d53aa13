import Testing
@testable import WebImageCore

/// ``ImageTransformers/Flatten``, ``ImageTransformers/Extend`` and ``ImageTransformers/Sharpen``.
@Suite struct CompositingTransformersTests {
    static let halfGreen = PixelBuffer(width: 4, height: 4, fill: RGBA(red: 0, green: 200, blue: 0, alpha: 128))

    @Test func flattenCompositesOverAnOpaqueBackgroundAndDropsAlpha() throws {
        let flat = try ImageTransformers.Flatten(background: RGBA(red: 255, green: 0, blue: 0, alpha: 0)).transform(pixels: Self.halfGreen)
        #expect(!flat.hasAlpha)
        #expect(flat[1, 1] == RGBA(red: 127, green: 100, blue: 0))  // the background's own alpha is ignored
        let opaque = PixelBuffer.samplePattern(width: 5, height: 5)
        #expect(try ImageTransformers.Flatten(background: .white).transform(pixels: opaque) == opaque)
    }

    @Test func extendPlacesTheImageOnACanvasOfTheFillColour() throws {
        let image = PixelBuffer.samplePattern(width: 3, height: 2)
        let extended = try ImageTransformers.Extend(width: 6, height: 5, x: 2, y: 1, background: .white).transform(pixels: image)
        #expect(extended.size == PixelSize(width: 6, height: 5) && !extended.hasAlpha)
        #expect(extended[2, 1] == image[0, 0] && extended[4, 2] == image[2, 1])
        #expect(extended[1, 1] == .white && extended[5, 2] == .white && extended[2, 3] == .white)
        // Transparent by default; a canvas smaller than the image, or offset, drops what falls outside.
        #expect(try ImageTransformers.Extend(width: 6, height: 5, x: 0, y: 0).transform(pixels: image)[5, 4].alpha == 0)
        let shifted = try ImageTransformers.Extend(width: 2, height: 2, x: -1, y: 0).transform(pixels: image)
        #expect(shifted[0, 0] == image[1, 0] && shifted[1, 1] == image[2, 1] && !shifted.hasAlpha)
    }

    @Test func extendRefusesACanvasOverItsLimitOrEmpty() {
        let image = PixelBuffer.samplePattern(width: 3, height: 2)
        #expect { try ImageTransformers.Extend(width: 100, height: 100, x: 0, y: 0, maximumPixelCount: 9999).transform(pixels: image) }
            throws: { ($0 as? ImageProcessingError)?.code == .outputTooLarge }
        #expect(throws: ImageProcessingError.self) { try ImageTransformers.Extend(width: 0, height: 5, x: 0, y: 0).transform(pixels: image) }
    }

    @Test func sharpenFollowsLibvipsCurveScaledToEightBits() {
        #expect(ImageTransformers.Sharpen.response(0) == 0)
        #expect(ImageTransformers.Sharpen.response(5) == 0)  // flat: below 2 L* ≈ 5.1
        #expect(abs(ImageTransformers.Sharpen.response(10) - 14.7) < 0.01)  // slope 3 above the threshold
        #expect(abs(ImageTransformers.Sharpen.response(100) - 25.5) < 0.01)  // brightening capped at 10 L*
        #expect(abs(ImageTransformers.Sharpen.response(-100) + 51) < 0.01)  // darkening capped at 20 L*
    }

    @Test func sharpenKeepsAlphaAndHueOnAColourEdge() throws {
        let edge = PixelBuffer(width: 10, height: 3, hasAlpha: true, bytes: (0..<30).flatMap { index -> [UInt8] in
            index % 10 < 5 ? [60, 30, 30, 200] : [200, 100, 100, 200]
        })
        let sharpened = try ImageTransformers.Sharpen(sigma: 1).transform(pixels: edge)
        #expect(sharpened[4, 1].red < 60 && sharpened[5, 1].red > 200)
        #expect(sharpened[4, 1].alpha == 200 && sharpened[5, 1].alpha == 200)
        // The same change on every channel: the differences between channels stay.
        #expect(abs(Int(sharpened[5, 1].red) - Int(sharpened[5, 1].green) - 100) <= 1)
        #expect(try ImageTransformers.Sharpen(sigma: 0).transform(pixels: edge) == edge)
        #expect(throws: ImageProcessingError.self) { try ImageTransformers.Sharpen(sigma: -1).transform(pixels: edge) }
    }
}
