import WebImageCore

/// The canvas an APNG animation is painted on (APNG specification, "Output buffer"): it starts
/// transparent black, each frame is drawn into its rectangle with its blend op, and its dispose op
/// is applied before the next frame is drawn.
struct APNGCanvas {
    let width: Int
    let height: Int
    /// RGBA, straight alpha, rows top to bottom.
    private var pixels: [UInt8]
    /// The frame just drawn and its dispose op, applied by the next ``draw(_:control:)``.
    private var pendingDispose: (control: APNGFrameControl, saved: [UInt8]?)?

    /// Bytes one full-canvas frame takes.
    var frameByteCount: Int { width * height * PixelBuffer.bytesPerPixel }

    /// Creates a transparent canvas; the caller has checked the dimensions.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * PixelBuffer.bytesPerPixel)
    }

    /// Applies the previous frame's dispose op, then draws `frame` (its rectangle's pixels, already
    /// checked to lie inside the canvas) as `control` says. `isFirst`: a first frame's "previous"
    /// dispose acts as "background", as the specification says.
    mutating func draw(_ frame: PixelBuffer, control: APNGFrameControl, isFirst: Bool) {
        applyPendingDispose()
        var control = control
        if isFirst && control.dispose == .previous { control.dispose = .background }
        let saved = control.dispose == .previous ? copyRect(control) : nil
        let rowBytes = control.width * PixelBuffer.bytesPerPixel
        frame.withUnsafeBytes { source in
            pixels.withUnsafeMutableBytes { canvas in
                for row in 0..<control.height {
                    let from = row * rowBytes
                    let to = ((control.y + row) * width + control.x) * PixelBuffer.bytesPerPixel
                    let destination = UnsafeMutableRawBufferPointer(rebasing: canvas[to..<(to + rowBytes)])
                    let sourceRow = UnsafeRawBufferPointer(rebasing: source[from..<(from + rowBytes)])
                    switch control.blend {
                    case .source: destination.copyMemory(from: sourceRow)
                    case .over: Self.blendOver(sourceRow, onto: destination)
                    }
                }
            }
        }
        pendingDispose = (control, saved)
    }

    /// The canvas as it is now, its alpha flag from its content.
    func snapshot() -> PixelBuffer {
        PixelBuffer(width: width, height: height, hasAlpha: true, bytes: pixels).withAlphaFlagFromContent()
    }

    /// Straight-alpha "over" (Porter–Duff), rounded to nearest in integers:
    /// `αo = αs + αd(1 − αs)`, `Co = (Cs·αs + Cd·αd(1 − αs)) / αo`; a fully transparent result is (0, 0, 0, 0).
    static func blendOver(_ source: UnsafeRawBufferPointer, onto destination: UnsafeMutableRawBufferPointer) {
        var index = 0
        while index < source.count {
            let sa = Int(source[index + 3])
            if sa == 255 {
                for channel in 0..<4 { destination[index + channel] = source[index + channel] }
            } else if sa != 0 {
                let da = Int(destination[index + 3])
                // Alphas scaled by 255²: the source's weight and the destination's.
                let sourceWeight = sa * 255, destinationWeight = da * (255 - sa)
                let outWeight = sourceWeight + destinationWeight
                for channel in 0..<3 {
                    let sum = Int(source[index + channel]) * sourceWeight + Int(destination[index + channel]) * destinationWeight
                    destination[index + channel] = UInt8((sum + outWeight / 2) / outWeight)
                }
                destination[index + 3] = UInt8((outWeight + 127) / 255)
            }
            index += 4
        }
    }

    private mutating func applyPendingDispose() {
        guard let (control, saved) = pendingDispose else { return }
        pendingDispose = nil
        switch control.dispose {
        case .none:
            return
        case .background:
            let zeros = [UInt8](repeating: 0, count: control.width * PixelBuffer.bytesPerPixel)
            zeros.withUnsafeBytes { writeRect(control, from: $0, sourceRowBytes: 0) }
        case .previous:
            saved?.withUnsafeBytes { writeRect(control, from: $0, sourceRowBytes: control.width * PixelBuffer.bytesPerPixel) }
        }
    }

    /// The pixels of the rectangle, rows packed.
    private func copyRect(_ rect: APNGFrameControl) -> [UInt8] {
        let rowBytes = rect.width * PixelBuffer.bytesPerPixel
        var copy: [UInt8] = []
        copy.reserveCapacity(rowBytes * rect.height)
        for row in 0..<rect.height {
            let start = ((rect.y + row) * width + rect.x) * PixelBuffer.bytesPerPixel
            copy.append(contentsOf: pixels[start..<(start + rowBytes)])
        }
        return copy
    }

    /// Writes rows into the rectangle; `sourceRowBytes` 0 repeats the first row.
    private mutating func writeRect(_ rect: APNGFrameControl, from source: UnsafeRawBufferPointer, sourceRowBytes: Int) {
        let rowBytes = rect.width * PixelBuffer.bytesPerPixel
        pixels.withUnsafeMutableBytes { canvas in
            for row in 0..<rect.height {
                let from = row * sourceRowBytes
                let to = ((rect.y + row) * width + rect.x) * PixelBuffer.bytesPerPixel
                UnsafeMutableRawBufferPointer(rebasing: canvas[to..<(to + rowBytes)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[from..<(from + rowBytes)]))
            }
        }
    }
}
