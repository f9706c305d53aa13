import WebImageKit

/// imgproxy's smart gravity (`sm`): where to cut an area of a given size so that it keeps the most
/// detailed part of the image.
///
/// The measure is edge energy, the first cue of libvips's `smartcrop` "attention" strategy (which
/// imgproxy uses): the sum of the absolute luma differences between each pixel and its right and lower
/// neighbours, with luma weighted by alpha so transparent areas count as flat. libvips then adds skin and
/// saturation cues and centres the area on the hottest point; here, instead, the energy is summed over
/// cells of at most ``gridSide`` × ``gridSide`` per image and every cell-aligned position of the area is
/// scored with a summed-area table, so the area with the most energy inside wins (the position nearest
/// the centre among equals, so a flat image is cut in the middle). The cost is one pass over the pixels
/// and memory for the cells, whatever the image's size.
enum SmartCrop {
    /// The most cells along the image's longer side.
    static let gridSide = 128

    /// The rectangle of size `area` (clamped to the image) inside `pixels` with the most edge energy.
    static func window(_ area: PixelSize, in pixels: PixelBuffer) -> ResizePlan.Rect {
        let width = min(max(area.width, 1), pixels.width), height = min(max(area.height, 1), pixels.height)
        guard width < pixels.width || height < pixels.height else {
            return ResizePlan.Rect(x: 0, y: 0, width: pixels.width, height: pixels.height)
        }
        let cell = max(1, (max(pixels.width, pixels.height) + gridSide - 1) / gridSide)
        let grid = PixelSize(width: (pixels.width + cell - 1) / cell, height: (pixels.height + cell - 1) / cell)
        let table = summedAreaTable(energy(of: pixels, cell: cell, grid: grid), grid: grid)
        let span = PixelSize(
            width: min(grid.width, max(1, Int((Double(width) / Double(cell)).rounded()))),
            height: min(grid.height, max(1, Int((Double(height) / Double(cell)).rounded()))))
        var best = (score: -1.0, distance: Double.infinity, x: 0, y: 0)
        let centre = (Double(grid.width - span.width) / 2, Double(grid.height - span.height) / 2)
        for cy in 0...(grid.height - span.height) {
            for cx in 0...(grid.width - span.width) {
                let score = sum(table, grid: grid, x: cx, y: cy, span: span)
                let distance = abs(Double(cx) - centre.0) + abs(Double(cy) - centre.1)
                if score > best.score || (score == best.score && distance < best.distance) {
                    best = (score, distance, cx, cy)
                }
            }
        }
        // Along an axis where the area is centred in cells (or everywhere in a flat image), centre it to the pixel.
        let flat = best.score <= 0
        let x = flat || Double(best.x) == centre.0 ? (pixels.width - width) / 2 : min(best.x * cell, pixels.width - width)
        let y = flat || Double(best.y) == centre.1 ? (pixels.height - height) / 2 : min(best.y * cell, pixels.height - height)
        return ResizePlan.Rect(x: x, y: y, width: width, height: height)
    }

    /// The edge energy of each `cell` × `cell` block, row-major over `grid`.
    static func energy(of pixels: PixelBuffer, cell: Int, grid: PixelSize) -> [Double] {
        var cells = [Double](repeating: 0, count: grid.width * grid.height)
        let width = pixels.width, height = pixels.height
        pixels.withUnsafeBytes { bytes in
            func luma(_ x: Int, _ y: Int) -> Int {
                let index = (y * width + x) * 4
                let value = 54 * Int(bytes[index]) + 183 * Int(bytes[index + 1]) + 19 * Int(bytes[index + 2])
                return value * Int(bytes[index + 3]) / 255
            }
            var row = (0..<width).map { luma($0, 0) }
            for y in 0..<height {
                let next = y + 1 < height ? (0..<width).map { luma($0, y + 1) } : row
                let cellRow = (y / cell) * grid.width
                for x in 0..<width {
                    let right = x + 1 < width ? row[x + 1] : row[x]
                    cells[cellRow + x / cell] += Double(abs(right - row[x]) + abs(next[x] - row[x]))
                }
                row = next
            }
        }
        return cells
    }

    /// The summed-area table of `cells`: entry (x, y) of a `(grid.width + 1) × (grid.height + 1)` table
    /// holds the sum of the cells above and left of it.
    static func summedAreaTable(_ cells: [Double], grid: PixelSize) -> [Double] {
        let stride = grid.width + 1
        var table = [Double](repeating: 0, count: stride * (grid.height + 1))
        for y in 0..<grid.height {
            var rowSum = 0.0
            for x in 0..<grid.width {
                rowSum += cells[y * grid.width + x]
                table[(y + 1) * stride + x + 1] = table[y * stride + x + 1] + rowSum
            }
        }
        return table
    }

    private static func sum(_ table: [Double], grid: PixelSize, x: Int, y: Int, span: PixelSize) -> Double {
        let stride = grid.width + 1
        let (right, bottom) = (x + span.width, y + span.height)
        return table[bottom * stride + right] - table[y * stride + right] - table[bottom * stride + x] + table[y * stride + x]
    }
}
