/// An opaque sRGB colour, as imgproxy's `background` option gives it (`R:G:B` or a hex colour).
public struct RGBColor: Sendable, Hashable, Encodable {
    /// The red channel, 0–255.
    public var red: UInt8
    /// The green channel, 0–255.
    public var green: UInt8
    /// The blue channel, 0–255.
    public var blue: UInt8

    /// Creates a colour from its three channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `rgb` or `rrggbb` hex digits (no `#`), as imgproxy's hex colours are written; nil otherwise.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 3 || digits.count == 6 else { return nil }
        var values: [UInt8] = []
        for digit in digits {
            guard let value = Hex.value(of: digit) else { return nil }
            values.append(value)
        }
        if values.count == 3 {
            self.init(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17)
        } else {
            self.init(red: values[0] << 4 | values[1], green: values[2] << 4 | values[3], blue: values[4] << 4 | values[5])
        }
    }
}
