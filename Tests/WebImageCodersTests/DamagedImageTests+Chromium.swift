import Foundation
import Testing
@testable import WebImageCoders

/// Issue 31, the cases measured against Chromium with `scripts/damaged-corpus.py` (fuzzed and cut copies of our
/// own files beside headless Chromium): each rule below is one way our decoders differed from what Chromium shows.
@Suite struct DamagedImageChromiumRuleTests {
    typealias Damaged = DamagedImageTests

    // MARK: - PNG

    /// An RGBA PNG of `pixels` whose zlib stream is stored, not compressed: every row's filter byte and pixels
    /// sit at a known offset, so a test can damage or cut exactly one row. Returns the file and where row 0's filter
    /// byte is (row `y` is `y × (1 + 4 × width)` bytes on; one stored block holds the whole image).
    static func storedPNG(_ pixels: PixelBuffer, adler: UInt32? = nil) -> (data: [UInt8], firstRow: Int) {
        var raw = [UInt8]()
        for y in 0..<pixels.height {
            raw.append(0)
            raw += pixels.bytes[(y * pixels.bytesPerRow)..<((y + 1) * pixels.bytesPerRow)]
        }
        precondition(raw.count <= 0xFFFF, "one stored block")
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let length = UInt16(raw.count)
        let zlib = [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            + raw + bigEndian(adler ?? (b << 16 | a))
        let header = bigEndian(UInt32(pixels.width)) + bigEndian(UInt32(pixels.height)) + [8, 6, 0, 0, 0]
        let file = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
        return (file, 8 + 25 + 8 + 7)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(PNGCRC32.checksum(body[...]))
    }

    @Test func aPNGCutInsideItsImageDataKeepsEveryRowTheBytesHold() throws {
        let pixels = Damaged.noise(width: 32, height: 32)
        let (file, firstRow) = Self.storedPNG(pixels)
        let rowBytes = 1 + 32 * 4
        // Cut 10 bytes into row 20: rows 0…19 are whole in the file, as Chromium shows them.
        let cut = Data(file.prefix(firstRow + 20 * rowBytes + 10))
        let image = try PNGCoder().decode(cut, options: Damaged.lenient)
        #expect(image.pixelSize == PixelSize(width: 32, height: 32))
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .truncated)
        #expect(issue.firstDamagedRow == 20)
        #expect(Damaged.topRows(image.pixels, 20) == Damaged.topRows(pixels, 20))
        #expect(image.pixels.bytes[(20 * 32 * 4)...].allSatisfy { $0 == 0 }, "the rows after the cut are transparent")
        // The same from a file, read as it is decoded (the data's size then comes from the file).
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString).png")
        try cut.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromFile = try ImageCodersManager.shared.decode(contentsOf: url, options: Damaged.lenient)
        #expect(fromFile.pixels.bytes == image.pixels.bytes)
        #expect(Damaged.codingError { try PNGCoder().decode(cut, options: Damaged.strict) }?.code == .truncatedData)
    }

    @Test func aPNGRowWithABadFilterTypeEndsTheImageThere() throws {
        let pixels = Damaged.noise(width: 32, height: 32)
        var (file, firstRow) = Self.storedPNG(pixels)
        file[firstRow + 12 * (1 + 32 * 4)] = 9 // no such filter
        let image = try PNGCoder().decode(Data(file), options: Damaged.lenient)
        let issue = try #require(image.issues.first { $0.kind == .corruptData })
        #expect(issue.firstDamagedRow == 12)
        #expect(Damaged.topRows(image.pixels, 12) == Damaged.topRows(pixels, 12))
        #expect(image.pixels.bytes[(12 * 32 * 4)...].allSatisfy { $0 == 0 })
        #expect(Damaged.codingError { try PNGCoder().decode(Data(file), options: Damaged.strict) }?.code == .corruptData)
    }

    @Test func aWrongZlibChecksumIsIgnoredAsChromiumIgnoresIt() throws {
        let pixels = Damaged.noise(width: 16, height: 16)
        let file = Data(Self.storedPNG(pixels, adler: 0x1234_5678).data)
        let image = try PNGCoder().decode(file, options: Damaged.lenient)
        #expect(image.pixels.bytes == pixels.bytes)
        #expect(Damaged.codingError { try PNGCoder().decode(file, options: Damaged.strict) } != nil)
    }

    @Test func aWrongChecksumOnTheHeaderOrPaletteIsRefusedAsChromiumRefusesIt() throws {
        let (clean, _) = try Damaged.cleanPNG()
        var header = [UInt8](clean)
        header[8 + 8 + 13] ^= 0xFF // IHDR's CRC
        #expect(Damaged.codingError { try PNGCoder().decode(Data(header), options: Damaged.lenient) }?.code == .corruptData)
        let indexed = try Fixtures.data("png/palette8.png")
        let palette = try #require(Damaged.chunks(indexed).first { $0.type == "PLTE" })
        var damaged = [UInt8](indexed)
        damaged[palette.offset + 8 + palette.length] ^= 0xFF
        #expect(Damaged.codingError { try PNGCoder().decode(Data(damaged), options: Damaged.lenient) }?.code == .corruptData)
        #expect(try PNGCoder().decode(indexed, options: Damaged.lenient).issues.isEmpty)
    }

    // MARK: - GIF

    /// A GIF of one `width`×`height` frame at (`left`, `top`) on a `screen` canvas, 4 grey colours, indices `i % 4`,
    /// its LZW data as 3-bit codes each a literal after a clear (no table growth), in sub-blocks of up to 255 bytes.
    static func gif(screen: (Int, Int), frame: (left: Int, top: Int, width: Int, height: Int)) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var codes = [Int]()
        for index in 0..<(frame.width * frame.height) { codes += [4, index % 4] }
        codes.append(5)
        var packed = [UInt8](), bits = 0, count = 0
        for code in codes {
            bits |= code << count
            count += 3
            while count >= 8 {
                packed.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        if count > 0 { packed.append(UInt8(bits)) }
        var blocks = [UInt8]()
        for start in stride(from: 0, to: packed.count, by: 255) {
            let block = packed[start..<min(start + 255, packed.count)]
            blocks += [UInt8(block.count)] + block
        }
        return Array("GIF89a".utf8) + word(screen.0) + word(screen.1) + [0x81, 0, 0] + [0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255]
            + [0x2C] + word(frame.left) + word(frame.top) + word(frame.width) + word(frame.height) + [0, 2] + blocks + [0, 0x3B]
    }

    @Test func aFirstFrameReachingPastTheScreenGrowsTheImageAsChromiumSizesIt() throws {
        let file = Data(Self.gif(screen: (8, 8), frame: (0, 20, 8, 8)))
        let image = try GIFCoder().decode(file, options: Damaged.lenient)
        #expect(image.pixelSize == PixelSize(width: 8, height: 28))
        #expect(image.pixels[1, 20].red == 85, "the frame is drawn where it says")
        #expect(image.pixels[1, 0].alpha == 0)
    }

    @Test func aGIFCutInsideItsOnlyFrameShowsThePixelsThatArrived() throws {
        let file = Self.gif(screen: (16, 16), frame: (0, 0, 16, 16))
        let cut = Data(file.prefix(file.count * 2 / 3))
        let image = try GIFCoder().decode(cut, options: Damaged.lenient)
        #expect(image.pixelSize == PixelSize(width: 16, height: 16))
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .truncated)
        let row = try #require(issue.firstDamagedRow)
        #expect(row > 4 && row < 14, "\(row)")
        #expect(image.pixels[3, 0].red == 255 && image.pixels[3, row + 1].alpha == 0)
        #expect(Damaged.codingError { try GIFCoder().decode(cut, options: Damaged.strict) }?.code == .truncatedData)
    }

    @Test func aBadLZWCodeInTheFirstFrameKeepsThePixelsBeforeIt() throws {
        var file = Self.gif(screen: (16, 16), frame: (0, 0, 16, 16))
        let data = 13 + 12 + 10 + 1 + 1 // header, palette, descriptor, code size, first block length
        // Code 7 while the table holds 6 entries: 3 bytes hold 8 codes (4 pixels), so the break is at pixel 40.
        let at = data + 30
        file[at] = 0xFF
        let image = try GIFCoder().decode(Data(file), options: Damaged.lenient)
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .corruptData)
        #expect(image.pixels[15, 0].alpha == 255 && image.pixels[15, 15].alpha == 0)
        #expect(Damaged.codingError { try GIFCoder().decode(Data(file), options: Damaged.strict) }?.code == .corruptData)
    }

    // MARK: - JPEG

    @Test func aJPEGCutBeforeItsFirstRowIsRefusedAsChromiumShowsNothing() throws {
        let clean = try JPEGCoder().encode(Image(pixels: Damaged.noise()), as: .jpeg, options: Damaged.jpegOptions)
        let start = try #require(Damaged.scanStarts(clean).first)
        let error = Damaged.codingError { try JPEGCoder().decode(clean.prefix(start + 20), options: Damaged.lenient) }
        #expect(error?.code == .truncatedData)
        #expect(error?.message.contains("before the first row") == true, "\(String(describing: error))")
    }

    @Test func aJPEGWhoseScanEndsInAnUnknownMarkerKeepsItsRows() throws {
        let clean = try JPEGCoder().encode(Image(pixels: Damaged.noise()), as: .jpeg, options: Damaged.jpegOptions)
        let start = try #require(Damaged.scanStarts(clean).first)
        var damaged = [UInt8](clean)
        let at = start + (clean.count - start) * 3 / 4
        damaged[at] = 0xFF
        damaged[at + 1] = 0x97 // libjpeg stops the scan here and fails on the marker: Chromium shows the rows
        let reference = try JPEGCoder().decode(clean, options: Damaged.lenient)
        let image = try JPEGCoder().decode(Data(damaged), options: Damaged.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        #expect(image.issues.first?.kind == .corruptData)
        #expect(Damaged.topRows(image.pixels, 32) == Damaged.topRows(reference.pixels, 32))
        #expect(Damaged.codingError { try JPEGCoder().decode(Data(damaged), options: Damaged.strict) }?.code == .corruptData)
    }

    @Test func aProgressiveJPEGWithABrokenTableBetweenScansIsRefusedAsChromiumRefusesIt() throws {
        let clean = try JPEGCoder().encode(Image(pixels: Damaged.gradient()), as: .jpeg,
                                           options: ImageEncodingOptions(quality: 0.9, progressive: true))
        let bytes = [UInt8](clean)
        let starts = Damaged.scanStarts(clean)
        try #require(starts.count > 3)
        // The first marker segment after scan 2's data: a Huffman table (or the next scan's header).
        let segment = try #require((starts[1]..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] != 0 && !(0xD0...0xD7).contains(bytes[$0 + 1]) })
        var damaged = bytes
        damaged[segment + 1] = 0xC4 // a DHT…
        damaged[segment + 2] = 0x00
        damaged[segment + 3] = 0x03 // …with no room for its table: "Bogus marker length"
        // Chromium reads every scan of a whole file before drawing any, so a fatal error on the way shows nothing.
        #expect(Damaged.codingError { try JPEGCoder().decode(Data(damaged), options: Damaged.lenient) }?.code == .corruptData)
        // Cut inside that marker instead, the scans before it show: Chromium waits for more data there and draws them.
        let cut = try JPEGCoder().decode(Data(bytes.prefix(segment + 3)), options: Damaged.lenient)
        #expect(cut.issues.first?.kind == .truncated)
        #expect(psnr(cut.pixels, Damaged.gradient()) > 20)
    }
}
