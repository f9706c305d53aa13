import Foundation
import WebImageCore

extension LibPNG {
    /// The last Adam7 pass: it holds every odd row whole, so once it has started the rows above its last row are exact.
    private static let lastAdam7Pass = 6

    /// An Adam7 image whose data breaks or ends before its last pass, shown as browsers show it (issue 31): libpng's
    /// progressive reader draws each pass "blocky" (a pixel fills the block it stands for), so the passes decoded
    /// before the damage give a full-size picture at their detail; rows no pass reached are transparent.
    ///
    /// The issue's row is known only inside the last pass (the rows above its last row are exact); earlier, every
    /// row is an approximation and the row is `nil`. Throws `failure` (the one-shot decoder's error) when the image
    /// is not interlaced or no row at all was decoded. Memory: one RGBA buffer of the IHDR's size, already checked
    /// against `maximumPixelCount` by the one-shot decode, and the reader's row buffers.
    static func decodeInterlacedPartially(_ data: Data, maximumPixelCount: Int, failure: ImageCodingError) throws -> Decoded {
        guard let reader = ProgressiveReader(maximumPixelCount: maximumPixelCount, lenient: true) else { throw failure }
        var broken: ImageCodingError?
        do {
            try reader.push(data, maximumPixelCount: maximumPixelCount)
        } catch let error as ImageCodingError {
            broken = error
        }
        let progress = reader.progress
        guard let header = progress.header, header.isInterlaced, progress.rowsWritten > 0,
              let pixels = reader.pixels(hasAlpha: true) else { throw failure }
        let firstDamagedRow = progress.pass == lastAdam7Pass ? min(progress.lastRow + 2, header.height) : nil
        let issue = DecodingIssue(
            broken == nil ? .truncated : .corruptData, firstDamagedRow: firstDamagedRow,
            detail: "Adam7 pass \(progress.pass + 1) of 7: \(broken?.message ?? failure.message)"
        )
        return Decoded(pixels: pixels.withAlphaFlagFromContent(), orientation: .up,
                       storedSize: PixelSize(width: header.width, height: header.height), issues: [issue])
    }
}
