/// What a GIF frame's image descriptor and Graphics Control Extension say about it.
struct GIFFrameInfo {
    /// The frame rectangle as declared; it may reach outside the canvas or be empty.
    var left = 0, top = 0, width = 0, height = 0
    /// Whether the rows are stored in the four interlace passes.
    var interlaced = false
    /// The palette index drawn as "leave the canvas alone", or -1.
    var transparentIndex = -1
    /// 0/1 none, 2 restore to background (clear to transparent), 3 restore to previous.
    var disposal = 0
    /// The delay in centiseconds as stored.
    var delayCentiseconds = 0

    /// The rows in the order the file stores them: the four interlace passes, or top to bottom.
    var rowPasses: [(start: Int, step: Int)] {
        interlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
    }

    /// How long browsers show the frame: a stored delay of 10 ms or less plays as 100 ms.
    var duration: Duration {
        delayCentiseconds <= 1 ? .milliseconds(100) : .milliseconds(delayCentiseconds * 10)
    }
}

/// The canvas a GIF animation is painted on, with browser semantics: it starts fully transparent,
/// each frame is drawn through its palette (skipping the transparent index), clipped to the canvas,
/// and its disposal (none, clear to transparent, restore previous) is applied before the next frame.
///
/// Snapshots share storage with the canvas, so the last frame costs no copy and every other frame
/// exactly one (the copy-on-write when the next frame starts changing the canvas).
struct GIFCanvas {
    let width: Int
    let height: Int
    /// The canvas, RGBA straight alpha.
    private var pixels: [UInt8]
    /// Whether every canvas pixel is opaque right now (exact, not a guess).
    private var isOpaque = false
    /// The current frame's colours as packed RGBA, always 256 entries.
    private var palette: [UInt32] = []
    private var frame = GIFFrameInfo()
    /// The current frame's rectangle clipped to the canvas (`x0..<x1`, `y0..<y1`, possibly empty).
    private var x0 = 0, x1 = 0, y0 = 0, y1 = 0
    /// What to do before the next frame is drawn: the previous frame's disposal.
    private var pendingDisposal: (mode: Int, x0: Int, x1: Int, y0: Int, y1: Int) = (0, 0, 0, 0, 0)
    /// The clipped rectangle's pixels before the current frame was drawn (disposal 3 only).
    private var saved: (pixels: [UInt8], isOpaque: Bool)?

    /// Bytes one full-canvas frame takes.
    var frameByteCount: Int { width * height * PixelBuffer.bytesPerPixel }

    /// Creates a transparent canvas; the caller has checked the dimensions.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * PixelBuffer.bytesPerPixel)
    }

    /// The palette browsers use for a frame without a local or global colour table: the GIF89a
    /// specification recommends black and white as the first two entries; the rest are black.
    static let defaultPalette: [UInt32] = [RGBA.black.packed, RGBA.white.packed] + Array(repeating: RGBA.black.packed, count: 254)

    /// Applies the previous frame's disposal and prepares to draw `info` with `palette` (256 packed colours).
    mutating func beginFrame(_ info: GIFFrameInfo, palette: [UInt32]) {
        applyPendingDisposal()
        frame = info
        self.palette = palette
        x0 = min(info.left, width)
        x1 = min(info.left + info.width, width)
        y0 = min(info.top, height)
        y1 = min(info.top + info.height, height)
        saved = info.disposal == 3 ? (copyRect(), isOpaque) : nil
    }

    /// Whether any part of the current frame lands on the canvas.
    var frameIsVisible: Bool { x0 < x1 && y0 < y1 }

    /// The number of frame rows, from the top, that land on the canvas.
    var visibleRowCount: Int { max(0, y1 - frame.top) }

    /// Draws row `row` (relative to the frame) of palette indices; `indices` holds the frame's full width, or only
    /// its first `pixelCount` indices (a row cut short: the rest of it is not drawn).
    mutating func drawRow(_ indices: UnsafePointer<UInt8>, row: Int, pixelCount: Int = .max) {
        let y = frame.top + row
        let rowEnd = min(x1, frame.left + min(pixelCount, frame.width))
        guard y < y1, x0 < rowEnd else { return }
        let count = rowEnd - x0
        let source = indices + (x0 - frame.left)
        let transparent = frame.transparentIndex
        let start = y * width + x0
        palette.withUnsafeBufferPointer { colors in
            pixels.withUnsafeMutableBytes { raw in
                guard let destination = raw.bindMemory(to: UInt32.self).baseAddress.map({ $0 + start }) else { return }
                if transparent < 0 {
                    for i in 0..<count { destination[i] = colors[Int(source[i])] }
                } else {
                    for i in 0..<count where Int(source[i]) != transparent {
                        destination[i] = colors[Int(source[i])]
                    }
                }
            }
        }
    }

    /// Finishes the current frame and returns the composited canvas as a full-canvas pixel buffer.
    mutating func endFrame() -> PixelBuffer {
        if !isOpaque {
            let coversCanvas = x0 == 0 && y0 == 0 && x1 == width && y1 == height
            isOpaque = coversCanvas && frame.transparentIndex < 0 ? true : scanOpaque()
        }
        // Drawing never makes a pixel transparent, so an opaque canvas stays opaque until disposal.
        pendingDisposal = (frame.disposal, x0, x1, y0, y1)
        return PixelBuffer(width: width, height: height, hasAlpha: !isOpaque, bytes: pixels)
    }

    private mutating func applyPendingDisposal() {
        let (mode, dx0, dx1, dy0, dy1) = pendingDisposal
        pendingDisposal = (0, 0, 0, 0, 0)
        guard dx0 < dx1, dy0 < dy1 else { return }
        switch mode {
        case 2:
            let rowBytes = (dx1 - dx0) * PixelBuffer.bytesPerPixel
            for y in dy0..<dy1 {
                let start = (y * width + dx0) * PixelBuffer.bytesPerPixel
                pixels[start..<start + rowBytes].withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
            }
            isOpaque = false
        case 3:
            if let saved {
                restoreRect(saved.pixels, x0: dx0, x1: dx1, y0: dy0, y1: dy1)
                isOpaque = saved.isOpaque
            }
        default:
            break
        }
    }

    /// The current frame's clipped rectangle, row after row.
    private func copyRect() -> [UInt8] {
        guard frameIsVisible else { return [] }
        let rowBytes = (x1 - x0) * PixelBuffer.bytesPerPixel
        var copy = [UInt8]()
        copy.reserveCapacity(rowBytes * (y1 - y0))
        for y in y0..<y1 {
            let start = (y * width + x0) * PixelBuffer.bytesPerPixel
            copy.append(contentsOf: pixels[start..<start + rowBytes])
        }
        return copy
    }

    /// Writes back what ``copyRect()`` saved, into the rectangle that was current when it was saved.
    private mutating func restoreRect(_ rect: [UInt8], x0 rx0: Int, x1 rx1: Int, y0 ry0: Int, y1 ry1: Int) {
        guard rect.count == (rx1 - rx0) * (ry1 - ry0) * PixelBuffer.bytesPerPixel else { return }
        let rowBytes = (rx1 - rx0) * PixelBuffer.bytesPerPixel
        for (index, y) in (ry0..<ry1).enumerated() {
            let start = (y * width + rx0) * PixelBuffer.bytesPerPixel
            pixels.replaceSubrange(start..<start + rowBytes, with: rect[index * rowBytes..<(index + 1) * rowBytes])
        }
    }

    private func scanOpaque() -> Bool {
        pixels.withUnsafeBytes { raw in
            let alphaMask = RGBA(red: 0, green: 0, blue: 0, alpha: 255).packed
            return raw.bindMemory(to: UInt32.self).allSatisfy { $0 & alphaMask == alphaMask }
        }
    }
}
