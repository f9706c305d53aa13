import CTIFF
import Foundation
import WebImageCore

extension LibTIFF {
    /// A rectangle of a page, in stored rows and columns, whose strip or tile libtiff could not decode.
    struct BadBlock {
        var rows: Range<Int>
        var columns: Range<Int>
    }

    /// The strips or tiles of the current page that libtiff cannot decode (a cut file, broken compressed data),
    /// found by decoding each once more into a scratch buffer of one block, and how many blocks there are; `nil`
    /// when a block is larger than `maximumAllocation` (then nothing is probed and the caller refuses the page).
    ///
    /// Memory: one strip or tile. Time: one more decode of each block; the loop visits each block once.
    static func badBlocks(_ tiff: OpenTIFF, size: PixelSize, maximumAllocation: Int) -> (bad: [BadBlock], total: Int)? {
        let isTiled = tiff.lib.TIFFIsTiled(tiff.pointer) != 0
        let blockBytes = isTiled ? tiff.lib.TIFFTileSize64(tiff.pointer) : tiff.lib.TIFFStripSize64(tiff.pointer)
        guard blockBytes > 0, blockBytes <= UInt64(maximumAllocation) else { return nil }
        let count = Int(isTiled ? tiff.lib.TIFFNumberOfTiles(tiff.pointer) : tiff.lib.TIFFNumberOfStrips(tiff.pointer))
        var scratch = [UInt8](repeating: 0, count: Int(blockBytes))
        var bad: [BadBlock] = []
        for index in 0..<count {
            let decoded = scratch.withUnsafeMutableBytes { raw in
                isTiled
                    ? tiff.lib.TIFFReadEncodedTile(tiff.pointer, UInt32(index), raw.baseAddress, tmsize_t(raw.count))
                    : tiff.lib.TIFFReadEncodedStrip(tiff.pointer, UInt32(index), raw.baseAddress, tmsize_t(raw.count))
            }
            guard decoded < 0 else { continue }
            if let block = isTiled ? tileBlock(tiff, index: index, size: size) : stripBlock(tiff, index: index, size: size) {
                bad.append(block)
            }
        }
        return (bad, count)
    }

    /// Reads the current page as ``readRGBA(_:file:size:)`` does, but lets damage pass as browsers do with the
    /// formats they show: libtiff carries on past strips or tiles it cannot decode, those are made transparent
    /// (libtiff may have left another block's pixels there), and `issues` gets what libtiff reported: the first
    /// damaged row when a block failed, no row for an error that cost no pixel. Throws when no block decodes.
    static func readRGBALeniently(
        _ tiff: OpenTIFF, file: TIFFMemoryFile, size: PixelSize, maximumAllocation: Int, issues: inout [DecodingIssue]
    ) throws(ImageCodingError) -> PixelBuffer {
        let reportedBefore = file.errors.count + file.readWarnings.count
        let pixels = try readRGBA(tiff, file: file, size: size, stopsOnError: false)
        guard file.errors.count + file.readWarnings.count > reportedBefore else { return pixels }
        let failure = error(file, fallback: "libtiff reported an error")
        guard let probe = badBlocks(tiff, size: size, maximumAllocation: maximumAllocation), probe.bad.count < probe.total else {
            throw failure
        }
        var bytes = pixels.bytes
        for block in probe.bad {
            for row in block.rows {
                let start = (row * size.width + block.columns.lowerBound) * PixelBuffer.bytesPerPixel
                bytes.replaceSubrange(start..<(start + block.columns.count * PixelBuffer.bytesPerPixel),
                                      with: repeatElement(0, count: block.columns.count * PixelBuffer.bytesPerPixel))
            }
        }
        let kind: DecodingIssue.Kind = failure.code == .truncatedData ? .truncated : .corruptData
        let firstRow = probe.bad.map(\.rows.lowerBound).min()
        let lost = probe.bad.isEmpty ? "" : " (\(probe.bad.count) of \(probe.total) \(tiff.lib.TIFFIsTiled(tiff.pointer) != 0 ? "tiles" : "strips") lost)"
        issues.append(DecodingIssue(kind, firstDamagedRow: firstRow, detail: failure.message + lost))
        return PixelBuffer(width: size.width, height: size.height, hasAlpha: true, bytes: bytes).withAlphaFlagFromContent()
    }

    /// The rows strip `index` covers (strips of every plane repeat the same rows).
    private static func stripBlock(_ tiff: OpenTIFF, index: Int, size: PixelSize) -> BadBlock? {
        let rowsPerStrip = Int(min(defaultedUInt32(tiff, UInt32(TIFFTAG_ROWSPERSTRIP)) ?? UInt32(size.height), UInt32(max(size.height, 1))))
        guard rowsPerStrip > 0 else { return nil }
        let stripsPerPlane = (size.height + rowsPerStrip - 1) / rowsPerStrip
        let first = (index % max(stripsPerPlane, 1)) * rowsPerStrip
        guard first < size.height else { return nil }
        return BadBlock(rows: first..<min(first + rowsPerStrip, size.height), columns: 0..<size.width)
    }

    /// The rectangle tile `index` covers (tiles of every plane repeat the same rectangles).
    private static func tileBlock(_ tiff: OpenTIFF, index: Int, size: PixelSize) -> BadBlock? {
        guard let tileWidth = defaultedUInt32(tiff, UInt32(TIFFTAG_TILEWIDTH)).map(Int.init),
              let tileHeight = defaultedUInt32(tiff, UInt32(TIFFTAG_TILELENGTH)).map(Int.init),
              tileWidth > 0, tileHeight > 0 else { return nil }
        let across = (size.width + tileWidth - 1) / tileWidth
        let down = (size.height + tileHeight - 1) / tileHeight
        guard across > 0, down > 0 else { return nil }
        let inPlane = index % (across * down)
        let top = inPlane / across * tileHeight, left = inPlane % across * tileWidth
        return BadBlock(rows: top..<min(top + tileHeight, size.height), columns: left..<min(left + tileWidth, size.width))
    }

    private static func defaultedUInt32(_ tiff: OpenTIFF, _ tag: UInt32) -> UInt32? {
        var value: UInt32 = 0
        let found = withUnsafeMutablePointer(to: &value) { pointer in
            withVaList([pointer]) { tiff.lib.TIFFVGetFieldDefaulted(tiff.pointer, tag, $0) }
        }
        return found != 0 ? value : nil
    }
}
