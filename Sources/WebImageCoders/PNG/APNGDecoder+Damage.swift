import Foundation
import WebImageCore

extension APNGDecoder {
    /// Plays the frames of a damaged animation as browsers do (issue 31): each frame is decoded leniently; a frame
    /// whose data breaks or ends keeps the rows it has (drawn onto the canvas as it was) and ends the animation;
    /// a frame with no decodable row, after the first, is dropped and ends it. The issues say where and why.
    ///
    /// `animation.frames` are the frames wanted; `playsAll` says whether that is every frame (not only the first),
    /// so frames the file lacks count as dropped. Throws when the first frame has no decodable row, as for a still PNG.
    static func decodeLeniently(
        _ animation: Animation, playsAll: Bool, in bytes: UnsafeRawBufferPointer, canvas: inout APNGCanvas, maximumPixelCount: Int
    ) throws -> (frames: [ImageFrame], issues: [DecodingIssue]) {
        var frames: [ImageFrame] = []
        var issues: [DecodingIssue] = []
        var endedEarly = false
        for (index, frame) in animation.frames.enumerated() {
            let png = standalonePNG(for: frame, of: animation, in: bytes)
            let decoded: LibPNG.Decoded
            do {
                decoded = try LibPNG.decode(png, maximumPixelCount: maximumPixelCount, strict: false)
            } catch let error as ImageCodingError where index > 0 {
                issues.append(DecodingIssue(.framesDropped, detail: "frame \(index + 1) does not decode: \(error.message)"))
                endedEarly = true
                break
            }
            let isLastOfACutFile = animation.isCut && index == animation.frames.count - 1
            var control = frame.control
            var pixels = decoded.pixels
            if let damage = decoded.issues.first(where: { $0.kind != .checksumMismatch }) {
                let kind: DecodingIssue.Kind = isLastOfACutFile ? .truncated : damage.kind
                if let rows = damage.firstDamagedRow {
                    // Only the rows that decoded are drawn: below them the canvas shows what it showed.
                    control.height = rows
                    pixels = PixelBuffer(width: pixels.width, height: rows, hasAlpha: true,
                                         bytes: Array(pixels.bytes.prefix(rows * pixels.bytesPerRow)))
                }
                issues.append(DecodingIssue(kind, firstDamagedRow: damage.firstDamagedRow.map { control.y + $0 },
                                            detail: "frame \(index + 1): \(damage.detail)"))
                endedEarly = index < animation.frames.count - 1
            } else if isLastOfACutFile {
                issues.append(DecodingIssue(.truncated, detail: "the file ends before IEND; frame \(index + 1) is whole"))
            }
            canvas.draw(pixels, control: control, isFirst: index == 0)
            frames.append(ImageFrame(pixels: canvas.snapshot(), duration: frame.control.duration))
            if endedEarly { break }
        }
        let announced = max(animation.declaredFrameCount, animation.frames.count)
        if playsAll, frames.count < announced, endedEarly || animation.isCut, !issues.contains(where: { $0.kind == .framesDropped }) {
            issues.append(DecodingIssue(.framesDropped, detail: "\(frames.count) of \(announced) frames played"))
        }
        return (frames, issues)
    }
}
