import WebImageKit

extension PixelBuffer {
    /// The same pixels with red, green and blue each replaced by its entry in a table of 256 values; alpha kept.
    func mappingChannels(red: [UInt8], green: [UInt8], blue: [UInt8]) -> PixelBuffer {
        precondition(red.count == 256 && green.count == 256 && blue.count == 256, "mappingChannels: a table must have 256 entries")
        var bytes = self.bytes
        bytes.withUnsafeMutableBufferPointer { pixels in
            for index in stride(from: 0, to: pixels.count, by: 4) {
                pixels[index] = red[Int(pixels[index])]
                pixels[index + 1] = green[Int(pixels[index + 1])]
                pixels[index + 2] = blue[Int(pixels[index + 2])]
            }
        }
        return PixelBuffer(width: width, height: height, hasAlpha: hasAlpha, bytes: bytes)
    }

    /// The same pixels with each one's red, green and blue replaced by `transform`'s result clamped to 0…255,
    /// pixel by pixel in row order (as thumbor's C filters walk them); alpha kept.
    func mappingColours(_ transform: (_ red: Int, _ green: Int, _ blue: Int) -> (Int, Int, Int)) -> PixelBuffer {
        var bytes = self.bytes
        bytes.withUnsafeMutableBufferPointer { pixels in
            for index in stride(from: 0, to: pixels.count, by: 4) {
                let (red, green, blue) = transform(Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
                pixels[index] = UInt8(clampingColour: red)
                pixels[index + 1] = UInt8(clampingColour: green)
                pixels[index + 2] = UInt8(clampingColour: blue)
            }
        }
        return PixelBuffer(width: width, height: height, hasAlpha: hasAlpha, bytes: bytes)
    }
}

extension UInt8 {
    /// `value` clamped to 0…255: thumbor's `ADJUST_COLOR`.
    init(clampingColour value: Int) {
        self = UInt8(Swift.min(Swift.max(value, 0), 255))
    }

    /// A table of 256 entries: `transform` of each level, clamped to 0…255.
    static func table(_ transform: (Int) -> Int) -> [UInt8] {
        (0...255).map { UInt8(clampingColour: transform($0)) }
    }

    /// `value` truncated towards zero and clamped to 0…255, as thumbor's C filters store a float sum; NaN is 0.
    init(truncatingColour value: Double) {
        self = value.isNaN ? 0 : UInt8(Swift.min(Swift.max(value, 0), 255).rounded(.towardZero))
    }
}
