import Foundation
package import WebImageKit

/// Parses the transformer lists the command-line tool takes, such as
/// `resize:300x200:fill,round:12,blur:2`, into a pipeline.
///
/// | item | meaning |
/// | --- | --- |
/// | `resize:WxH[:fit|fill|stretch][:upscale]` | `ImageTransformers.Resize` |
/// | `crop:X:Y:WxH` | `ImageTransformers.Crop` |
/// | `round:RADIUS[:BORDER[:RRGGBB[AA]]]` | `ImageTransformers.RoundCorners` |
/// | `flip:h`, `flip:v`, `flip:hv` | `ImageTransformers.Flip` |
/// | `rotate:DEGREES[:RRGGBB[AA]]` | `ImageTransformers.Rotate` |
/// | `tint:RRGGBB[AA]` | `ImageTransformers.Tint` |
/// | `blur:RADIUS` | `ImageTransformers.Blur` |
/// | `orient` | `ImageTransformers.NormalizeOrientation` |
package enum TransformList {
    /// The error for a list that does not parse.
    package struct ParseError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, naming the item.
        package let description: String
    }

    /// Parses a comma-separated list; an empty list gives an empty pipeline. Transformers that can enlarge
    /// an image (resize, rotate) refuse results over `maximumPixelCount` pixels.
    package static func parse(
        _ list: String, maximumPixelCount: Int = ImageDecodingOptions.defaultMaximumPixelCount
    ) throws -> ImageTransformers.Pipeline {
        let items = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return ImageTransformers.Pipeline(try items.map { try parseItem($0, maximumPixelCount: maximumPixelCount) })
    }

    private static func parseItem(_ item: String, maximumPixelCount: Int) throws -> any ImageTransforming {
        let parts = item.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let arguments = Array(parts.dropFirst())
        func fail(_ why: String) -> ParseError { ParseError(description: "\(item): \(why)") }
        func number(_ index: Int) throws -> Double {
            guard index < arguments.count, let value = Double(arguments[index]), value.isFinite else {
                throw fail("expected a number as argument \(index + 1)")
            }
            return value
        }
        func size(_ index: Int) throws -> PixelSize {
            let fields = index < arguments.count ? arguments[index].lowercased().split(separator: "x").compactMap { Int($0) } : []
            guard fields.count == 2, fields[0] > 0, fields[1] > 0 else { throw fail("expected a size such as 300x200") }
            return PixelSize(width: fields[0], height: fields[1])
        }
        func colour(_ index: Int, default value: RGBA) throws -> RGBA {
            guard index < arguments.count else { return value }
            guard let parsed = RGBA(hex: arguments[index]) else { throw fail("expected a colour such as ff8800 or ff880080") }
            return parsed
        }
        switch parts[0].lowercased() {
        case "resize":
            let modes = arguments.dropFirst()
            let mode = try modes.first { $0 != "upscale" }.map { name in
                guard let mode = ImageTransformers.Resize.Mode(rawValue: name) else { throw fail("mode must be fit, fill or stretch") }
                return mode
            } ?? .fit
            return ImageTransformers.Resize(
                size: try size(0), mode: mode, upscale: modes.contains("upscale"), maximumPixelCount: maximumPixelCount)
        case "crop":
            let origin = (try number(0), try number(1))
            let extent = try size(2)
            return ImageTransformers.Crop(x: Int(origin.0), y: Int(origin.1), width: extent.width, height: extent.height)
        case "round":
            return ImageTransformers.RoundCorners(
                radius: try number(0), borderWidth: arguments.count > 1 ? try number(1) : 0, borderColor: try colour(2, default: .black))
        case "flip":
            let axes = arguments.first?.lowercased() ?? ""
            guard !axes.isEmpty, axes.allSatisfy({ $0 == "h" || $0 == "v" }) else { throw fail("expected h, v or hv") }
            return ImageTransformers.Flip(horizontal: axes.contains("h"), vertical: axes.contains("v"))
        case "rotate":
            return ImageTransformers.Rotate(
                degrees: try number(0), background: try colour(1, default: .transparent), maximumPixelCount: maximumPixelCount)
        case "tint":
            guard !arguments.isEmpty else { throw fail("expected a colour") }
            return ImageTransformers.Tint(color: try colour(0, default: .black))
        case "blur":
            return ImageTransformers.Blur(radius: try number(0))
        case "orient":
            return ImageTransformers.NormalizeOrientation()
        default:
            throw fail("unknown transformer (resize, crop, round, flip, rotate, tint, blur, orient)")
        }
    }
}

extension RGBA {
    /// Parses `RRGGBB` or `RRGGBBAA`, with or without a leading `#`.
    package init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let full = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(red: UInt8(full >> 24), green: UInt8((full >> 16) & 0xFF), blue: UInt8((full >> 8) & 0xFF), alpha: UInt8(full & 0xFF))
    }
}
