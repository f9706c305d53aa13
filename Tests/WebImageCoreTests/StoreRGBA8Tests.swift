import CWebImageKernels
import Testing
@testable import WebImageCore

/// Float pixels to RGBA8 (`wik_store_rgba8`, the resampler's last step): clamped to 0…255, NaN to 0,
/// rounded to the nearest byte with ties to even, un-premultiplied when the source had alpha.
@Suite struct StoreRGBA8Tests {
    /// The rule written out one channel at a time.
    static func expected(_ pixel: SIMD4<Float>, premultiplied: Bool) -> [UInt8] {
        func byte(_ value: Float) -> UInt8 {
            guard value > 0 else { return 0 } // NaN too
            guard value < 255 else { return 255 }
            return UInt8(value.rounded(.toNearestOrEven))
        }
        guard premultiplied else { return [byte(pixel.x), byte(pixel.y), byte(pixel.z), 255] }
        let alpha = pixel.w > 0 ? min(pixel.w, 255) : 0
        let factor: Float = alpha > 0 ? 255 / alpha : 0
        return [byte(pixel.x * factor), byte(pixel.y * factor), byte(pixel.z * factor), byte(alpha)]
    }

    static let awkward: [Float] = [0, -0.0, -3, 0.5, 1.5, 2.5, 127.5, 128.5, 254.5, 254.49, 255, 255.5, 300, 1e30, -1e30,
                                   .infinity, -.infinity, .nan, 17.2, 99.7]

    /// Every awkward value in every channel, stored as a row (so the four-at-a-time loop and the tail both
    /// run) and pixel by pixel.
    @Test(arguments: [false, true])
    func everyChannelIsClampedAndRoundedTiesToEven(premultiplied: Bool) {
        var pixels: [SIMD4<Float>] = []
        for (index, value) in Self.awkward.enumerated() {
            let other = Self.awkward[(index * 7 + 3) % Self.awkward.count]
            pixels.append(SIMD4(value, other, 200, premultiplied ? Self.awkward[(index * 3 + 1) % Self.awkward.count] : 9))
            pixels.append(SIMD4(64, value, other, premultiplied ? 128 : 9))
        }
        for count in [pixels.count, pixels.count - 1, 3, 1] { // tails of 0 to 3 pixels after the vector loop
            var row = [UInt8](repeating: 0xAB, count: count * 4 + 4)
            pixels.withUnsafeBytes { floats in
                wik_store_rgba8(floats.baseAddress?.assumingMemoryBound(to: Float.self), count, premultiplied ? 1 : 0, &row)
            }
            for x in 0..<count {
                #expect(Array(row[(x * 4)..<(x * 4 + 4)]) == Self.expected(pixels[x], premultiplied: premultiplied),
                        "pixel \(x) of \(count): \(pixels[x])")
            }
            #expect(row[(count * 4)...].allSatisfy { $0 == 0xAB }, "nothing is written past the last pixel")
        }
        for pixel in pixels {
            var bytes = [UInt8](repeating: 0, count: 4)
            Resampler.store(pixel, premultiplied: premultiplied, to: &bytes)
            #expect(bytes == Self.expected(pixel, premultiplied: premultiplied), "\(pixel)")
        }
    }
}
