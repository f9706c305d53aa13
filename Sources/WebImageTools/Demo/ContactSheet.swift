package import WebImageKit
/// Lays images out on one canvas, left to right and top to bottom, each scaled to fit its tile and centred;
/// a missing image (a failed load) leaves a dark tile. `webimage demo` writes one of these.
package enum ContactSheet {
    /// Makes the sheet.
    /// - Parameters:
    ///   - images: The tiles in order; `nil` for a failed one.
    ///   - columns: Tiles per row.
    ///   - tile: The size of each tile; images larger than it are scaled down (aspect kept), smaller ones centred.
    ///   - gap: Pixels between tiles and around the edge.
    package static func make(
        _ images: [Image?], columns: Int = 4, tile: PixelSize = PixelSize(width: 240, height: 240), gap: Int = 12
    ) throws -> Image {
        let columns = max(1, min(columns, max(images.count, 1)))
        let rows = max(1, (images.count + columns - 1) / columns)
        let width = columns * tile.width + (columns + 1) * gap
        let height = rows * tile.height + (rows + 1) * gap
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        fill(&canvas, width: width, x: 0, y: 0, w: width, h: height, color: RGBA(red: 242, green: 242, blue: 238))
        for (index, image) in images.enumerated() {
            let x0 = gap + (index % columns) * (tile.width + gap)
            let y0 = gap + (index / columns) * (tile.height + gap)
            guard let image else {
                fill(&canvas, width: width, x: x0, y: y0, w: tile.width, h: tile.height, color: RGBA(red: 60, green: 60, blue: 66))
                continue
            }
            let fitted = try fit(image.firstFrame.pixels, in: tile)
            let x = x0 + (tile.width - fitted.width) / 2
            let y = y0 + (tile.height - fitted.height) / 2
            draw(fitted, on: &canvas, width: width, x: x, y: y)
        }
        return Image(pixels: PixelBuffer(width: width, height: height, hasAlpha: false, bytes: canvas))
    }

    /// `pixels` scaled down (Lanczos, aspect kept) to fit `tile`, or as they are when they already fit.
    private static func fit(_ pixels: PixelBuffer, in tile: PixelSize) throws -> PixelBuffer {
        guard pixels.width > tile.width || pixels.height > tile.height else { return pixels }
        let scale = min(Double(tile.width) / Double(pixels.width), Double(tile.height) / Double(pixels.height))
        let size = PixelSize(width: max(1, Int(Double(pixels.width) * scale)), height: max(1, Int(Double(pixels.height) * scale)))
        return try ImageTransformers.Resize(size: size, mode: .stretch).transform(pixels: pixels)
    }

    private static func fill(_ canvas: inout [UInt8], width: Int, x: Int, y: Int, w: Int, h: Int, color: RGBA) {
        for row in y..<(y + h) {
            for column in x..<(x + w) {
                let offset = (row * width + column) * 4
                canvas[offset] = color.red
                canvas[offset + 1] = color.green
                canvas[offset + 2] = color.blue
                canvas[offset + 3] = 255
            }
        }
    }

    /// Composites straight-alpha `pixels` over the canvas at (x, y).
    private static func draw(_ pixels: PixelBuffer, on canvas: inout [UInt8], width: Int, x: Int, y: Int) {
        let source = pixels.bytes
        for row in 0..<pixels.height {
            for column in 0..<pixels.width {
                let from = (row * pixels.width + column) * 4
                let to = ((y + row) * width + x + column) * 4
                let alpha = Int(source[from + 3])
                for channel in 0..<3 {
                    let over = Int(source[from + channel]) * alpha + Int(canvas[to + channel]) * (255 - alpha)
                    canvas[to + channel] = UInt8((over + 127) / 255)
                }
            }
        }
    }
}
