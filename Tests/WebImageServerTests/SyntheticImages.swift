import WebImageKit

/// Pictures whose regions can be told apart by colour, for the processing tests.
enum SyntheticImages {
    static let red = RGBA(red: 220, green: 0, blue: 0)
    static let green = RGBA(red: 0, green: 200, blue: 0)
    static let blue = RGBA(red: 0, green: 0, blue: 220)
    static let yellow = RGBA(red: 230, green: 230, blue: 0)
    static let grey = RGBA(red: 128, green: 128, blue: 128)

    /// A picture split in four: top-left red, top-right green, bottom-left blue, bottom-right yellow.
    static func quadrants(width: Int, height: Int) -> PixelBuffer {
        pattern(width: width, height: height) { x, y in
            switch (x < width / 2, y < height / 2) {
            case (true, true): red
            case (false, true): green
            case (true, false): blue
            case (false, false): yellow
            }
        }
    }

    /// Flat grey, with a black-and-white checkerboard of 4-pixel squares where `detailed` holds.
    static func detail(width: Int, height: Int, detailed: (Int, Int) -> Bool) -> PixelBuffer {
        pattern(width: width, height: height) { x, y in
            guard detailed(x, y) else { return grey }
            return (x / 4 + y / 4).isMultiple(of: 2) ? .black : .white
        }
    }

    /// Every pixel from `colour`.
    static func pattern(width: Int, height: Int, _ colour: (Int, Int) -> RGBA) -> PixelBuffer {
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 4)
        var opaque = true
        for y in 0..<height {
            for x in 0..<width {
                let pixel = colour(x, y)
                bytes += [pixel.red, pixel.green, pixel.blue, pixel.alpha]
                opaque = opaque && pixel.alpha == 255
            }
        }
        return PixelBuffer(width: width, height: height, hasAlpha: !opaque, bytes: bytes)
    }

    /// Whether `actual` is within `tolerance` of `expected` in every channel.
    static func close(_ actual: RGBA, _ expected: RGBA, tolerance: Int = 12) -> Bool {
        abs(Int(actual.red) - Int(expected.red)) <= tolerance && abs(Int(actual.green) - Int(expected.green)) <= tolerance
            && abs(Int(actual.blue) - Int(expected.blue)) <= tolerance && abs(Int(actual.alpha) - Int(expected.alpha)) <= tolerance
    }
}
