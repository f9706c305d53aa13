import Foundation
import WebImageCore

/// One `fcTL` chunk: where an APNG frame lies on the canvas, how long it shows and how it is drawn.
struct APNGFrameControl {
    /// What happens to the frame's rectangle before the next frame is drawn.
    enum Dispose: UInt8 {
        /// Leave the canvas as it is.
        case none = 0
        /// Clear the rectangle to transparent black.
        case background = 1
        /// Restore the rectangle to what it was before this frame was drawn.
        case previous = 2
    }

    /// How the frame's pixels meet the canvas.
    enum Blend: UInt8 {
        /// Replace the rectangle's pixels, alpha included.
        case source = 0
        /// Composite the frame over the canvas (straight alpha "over").
        case over = 1
    }

    var sequenceNumber: UInt32
    var width: Int
    var height: Int
    var x: Int
    var y: Int
    var delayNumerator: UInt16
    var delayDenominator: UInt16
    var dispose: Dispose
    var blend: Blend

    /// Reads the 26 bytes of an `fcTL` chunk; throws `corruptData` for a wrong length, a zero size or
    /// an unknown dispose or blend op.
    init(_ bytes: UnsafeRawBufferPointer) throws(ImageCodingError) {
        guard bytes.count == 26 else {
            throw ImageCodingError(.corruptData, format: .png, "an fcTL chunk of \(bytes.count) bytes instead of 26")
        }
        sequenceNumber = APNGChunkReader.readUInt32(bytes, at: 0)
        width = Int(APNGChunkReader.readUInt32(bytes, at: 4))
        height = Int(APNGChunkReader.readUInt32(bytes, at: 8))
        x = Int(APNGChunkReader.readUInt32(bytes, at: 12))
        y = Int(APNGChunkReader.readUInt32(bytes, at: 16))
        delayNumerator = APNGChunkReader.readUInt16(bytes, at: 20)
        delayDenominator = APNGChunkReader.readUInt16(bytes, at: 22)
        guard let dispose = Dispose(rawValue: bytes[24]), let blend = Blend(rawValue: bytes[25]) else {
            throw ImageCodingError(.corruptData, format: .png, "an fcTL chunk with dispose op \(bytes[24]) or blend op \(bytes[25])")
        }
        self.dispose = dispose
        self.blend = blend
        guard width > 0, height > 0 else {
            throw ImageCodingError(.corruptData, format: .png, "an APNG frame of \(width)×\(height) pixels")
        }
    }

    /// How long browsers show the frame: `delay_num / delay_den` seconds, a denominator of 0 meaning
    /// 100; a delay of 10 ms or less plays as 100 ms, as for GIF.
    var duration: Duration {
        let denominator = Int64(delayDenominator == 0 ? 100 : delayDenominator)
        let numerator = Int64(delayNumerator)
        if numerator * 1000 <= 10 * denominator { return .milliseconds(100) }
        return .nanoseconds(numerator * 1_000_000_000 / denominator)
    }

    /// Whether the rectangle lies inside a canvas of `width × height`.
    func fits(canvasWidth: Int, canvasHeight: Int) -> Bool {
        x <= canvasWidth - width && y <= canvasHeight - height
    }
}
