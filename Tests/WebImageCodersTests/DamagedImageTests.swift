import Foundation
import Testing
@testable import WebImageCoders

/// Issue 31: damaged JPEG, PNG and GIF files decode what is there, as browsers show them, and say what was
/// wrong in `Image.issues`; `ImageDecodingOptions(strict: true)` refuses them as before. Every fixture is one
/// of our own clean encodes, damaged here.
@Suite struct DamagedImageTests {
    static let lenient = ImageDecodingOptions()
    static let strict = ImageDecodingOptions(strict: true)

    // MARK: - Fixtures

    /// A 64×64 opaque image of noise (it compresses badly, so every row has its own bytes in the file).
    static func noise(width: Int = 64, height: Int = 64, seed: UInt32 = 1) -> PixelBuffer {
        var state = seed &* 2_654_435_761
        var bytes = [UInt8]()
        bytes.reserveCapacity(width * height * 4)
        for _ in 0..<(width * height) {
            for _ in 0..<3 {
                state = state &* 1_103_515_245 &+ 12345
                bytes.append(UInt8(truncatingIfNeeded: state >> 16))
            }
            bytes.append(255)
        }
        return PixelBuffer(width: width, height: height, hasAlpha: false, bytes: bytes)
    }

    /// A smooth 64×64 gradient (JPEG's entropy data for it is short and even).
    static func gradient(width: Int = 64, height: Int = 64) -> PixelBuffer {
        var bytes = [UInt8]()
        for y in 0..<height {
            for x in 0..<width { bytes += [UInt8(x * 4 % 256), UInt8(y * 4 % 256), UInt8((x + y) * 2 % 256), 255] }
        }
        return PixelBuffer(width: width, height: height, hasAlpha: false, bytes: bytes)
    }

    /// The offsets just after each JPEG SOS segment's header: where each scan's entropy data starts.
    static func scanStarts(_ jpeg: Data) -> [Int] {
        let bytes = [UInt8](jpeg)
        var starts = [Int]()
        var index = 2
        while index + 3 < bytes.count {
            guard bytes[index] == 0xFF else { index += 1; continue }
            let marker = bytes[index + 1]
            if marker == 0xD8 || marker == 0x00 || marker == 0xFF || (0xD0...0xD7).contains(marker) { index += 2; continue }
            if marker == 0xD9 { break }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xDA { starts.append(index + 2 + length) }
            index += 2 + length
        }
        return starts
    }

    /// The PNG's chunks as (type, offset of the length field, data length).
    static func chunks(_ png: Data) -> [(type: String, offset: Int, length: Int)] {
        let bytes = [UInt8](png)
        var result: [(String, Int, Int)] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            result.append((type, offset, length))
            offset += 12 + length
        }
        return result
    }

    /// The bytes of rows `0..<rows` of `pixels`.
    static func topRows(_ pixels: PixelBuffer, _ rows: Int) -> ArraySlice<UInt8> {
        pixels.bytes[0..<(rows * pixels.width * PixelBuffer.bytesPerPixel)]
    }

    /// The error `body` throws, as an `ImageCodingError`.
    static func codingError(_ body: () throws -> Image) -> ImageCodingError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? ImageCodingError
        }
    }

    // MARK: - JPEG

    static let jpegOptions = ImageEncodingOptions(quality: 0.95) // 4:4:4: rows above the damage are exact

    @Test func jpegCutInItsScanShowsTheRowsBeforeTheCutAndSaysTruncated() throws {
        let clean = try JPEGCoder().encode(Image(pixels: Self.noise()), as: .jpeg, options: Self.jpegOptions)
        let start = try #require(Self.scanStarts(clean).first)
        let cut = clean.prefix(start + (clean.count - start) / 2)
        let reference = try JPEGCoder().decode(clean, options: Self.lenient)
        let image = try JPEGCoder().decode(cut, options: Self.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .truncated)
        let row = try #require(issue.firstDamagedRow)
        #expect(row > 8 && row < 56, "cut at half the scan, damaged from row \(row)")
        #expect(Self.topRows(image.pixels, row) == Self.topRows(reference.pixels, row))
        #expect(image.pixels.bytes != reference.pixels.bytes)
        #expect(reference.issues.isEmpty)
        #expect(Self.codingError { try JPEGCoder().decode(cut, options: Self.strict) }?.code == .truncatedData)
    }

    @Test func jpegCutInItsScanShrinksOnLoadWithTheSameIssue() throws {
        let clean = try JPEGCoder().encode(Image(pixels: Self.noise(width: 256, height: 256)), as: .jpeg, options: Self.jpegOptions)
        let start = try #require(Self.scanStarts(clean).first)
        let cut = clean.prefix(start + (clean.count - start) / 2)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64))
        let image = try JPEGCoder().decode(cut, options: options)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .truncated)
        let row = try #require(issue.firstDamagedRow)
        #expect(row > 8 && row < 56, "rows counted in the 64-row thumbnail: \(row)")
        var strict = options
        strict.strict = true
        #expect(Self.codingError { try JPEGCoder().decode(cut, options: strict) }?.code == .truncatedData)
    }

    @Test func progressiveJPEGCutAfterItsFirstScansShowsTheWholeImageBlurred() throws {
        let pixels = Self.gradient()
        let clean = try JPEGCoder().encode(Image(pixels: pixels), as: .jpeg, options: ImageEncodingOptions(quality: 0.9, progressive: true))
        let starts = Self.scanStarts(clean)
        try #require(starts.count > 3)
        let cut = clean.prefix(starts[3] + 4) // inside the fourth scan: the DC scan and the first AC scans are whole
        let image = try JPEGCoder().decode(cut, options: Self.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        #expect(image.issues.first?.kind == .truncated)
        #expect(psnr(image.pixels, pixels) > 20, "the first scans give the picture, coarsely")
        #expect(Self.codingError { try JPEGCoder().decode(cut, options: Self.strict) }?.code == .truncatedData)
    }

    @Test func jpegWithFlippedScanBytesDecodesWithACorruptDataIssue() throws {
        let clean = try JPEGCoder().encode(Image(pixels: Self.noise()), as: .jpeg, options: Self.jpegOptions)
        let start = try #require(Self.scanStarts(clean).first)
        var damaged = [UInt8](clean)
        let from = start + (clean.count - start) * 3 / 4
        for index in from..<(from + 16) where damaged[index] != 0xFF && damaged[index] ^ 0x5A != 0xFF && damaged[index - 1] != 0xFF {
            damaged[index] ^= 0x5A
        }
        let reference = try JPEGCoder().decode(clean, options: Self.lenient)
        let image = try JPEGCoder().decode(Data(damaged), options: Self.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        #expect(!image.issues.isEmpty)
        #expect(Self.topRows(image.pixels, 16) == Self.topRows(reference.pixels, 16), "the rows coded before the flipped bytes")
        #expect(Self.codingError { try JPEGCoder().decode(Data(damaged), options: Self.strict) } != nil)
    }

    @Test func jpegCutInsideItsHeadersIsStillRefused() throws {
        let clean = try JPEGCoder().encode(Image(pixels: Self.noise()), as: .jpeg, options: Self.jpegOptions)
        let start = try #require(Self.scanStarts(clean).first)
        for length in [2, 20, start - 20] {
            #expect(Self.codingError { try JPEGCoder().decode(clean.prefix(length), options: Self.lenient) } != nil)
        }
    }

    // MARK: - PNG

    /// A clean PNG of opaque noise, its decode, and its chunks.
    static func cleanPNG() throws -> (data: Data, pixels: PixelBuffer) {
        let data = try PNGCoder().encode(Image(pixels: noise()), as: .png, options: ImageEncodingOptions())
        return (data, try PNGCoder().decode(data, options: strict).pixels)
    }

    @Test func pngWithABadIDATChecksumDecodesWhole() throws {
        let (clean, reference) = try Self.cleanPNG()
        let idat = try #require(Self.chunks(clean).first { $0.type == "IDAT" })
        var damaged = [UInt8](clean)
        damaged[idat.offset + 8 + idat.length + 3] ^= 0xFF // the CRC's last byte
        let image = try PNGCoder().decode(Data(damaged), options: Self.lenient)
        #expect(image.pixels.bytes == reference.bytes)
        #expect(image.issues.map(\.kind) == [.checksumMismatch])
        #expect(Self.codingError { try PNGCoder().decode(Data(damaged), options: Self.strict) }?.code == .corruptData)
    }

    @Test func pngCutInItsImageDataKeepsTheRowsBeforeTheCutTheRestTransparent() throws {
        let (clean, reference) = try Self.cleanPNG()
        let idat = try #require(Self.chunks(clean).first { $0.type == "IDAT" })
        let cut = clean.prefix(idat.offset + 8 + idat.length / 2)
        for options in [Self.lenient, ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64))] {
            let image = try PNGCoder().decode(cut, options: options)
            #expect(image.pixelSize == PixelSize(width: 64, height: 64))
            let issue = try #require(image.issues.first)
            #expect(issue.kind == .truncated)
            let row = try #require(issue.firstDamagedRow)
            #expect(row > 8 && row < 56, "cut at half the data, damaged from row \(row)")
            #expect(Self.topRows(image.pixels, row) == Self.topRows(reference, row))
            #expect(image.pixels.bytes[(row * 64 * 4)...].allSatisfy { $0 == 0 }, "the rest is transparent")
            #expect(image.hasAlpha)
        }
        #expect(Self.codingError { try PNGCoder().decode(cut, options: Self.strict) }?.code == .truncatedData)
    }

    @Test func pngCutInItsImageDataShrinksOnLoadKeepingTheRowsBeforeTheCut() throws {
        let pixels = Self.noise(width: 256, height: 256)
        let clean = try PNGCoder().encode(Image(pixels: pixels), as: .png, options: ImageEncodingOptions())
        let cut = clean.prefix(clean.count * 2 / 5)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64)) // decoded row by row, in bands
        let reference = try PNGCoder().decode(clean, options: options)
        let image = try PNGCoder().decode(cut, options: options)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .truncated)
        let row = try #require(issue.firstDamagedRow)
        #expect(row > 16 && row < 32, "cut at 2/5 of the file, damaged from thumbnail row \(row)")
        // The resampler's kernel (Lanczos 3 at 4:1) reaches 3 rows across the cut; the rows above are the clean thumbnail's.
        #expect(Self.topRows(image.pixels, row - 3) == Self.topRows(reference.pixels, row - 3))
        #expect(image.pixels.bytes[(row * 64 * 4)...].allSatisfy { $0 == 0 }, "the rest is transparent")
        #expect(image.hasAlpha && !reference.hasAlpha)
        var strict = options
        strict.strict = true
        #expect(Self.codingError { try PNGCoder().decode(cut, options: strict) }?.code == .truncatedData)
    }

    @Test func pngWithGarbageInItsImageDataKeepsTheRowsBeforeIt() throws {
        let (clean, reference) = try Self.cleanPNG()
        let idat = try #require(Self.chunks(clean).first { $0.type == "IDAT" })
        var damaged = [UInt8](clean)
        // Garbage 2 KiB into the zlib stream (noise rows take 257 bytes each: about row 8). Chromium shows what zlib
        // makes of it (it checks neither the chunk's CRC nor zlib's Adler-32), and so do we; the rows from the
        // garbage on are either that or, when zlib or a row filter notices it, transparent (aPNGRowWithABadFilterType…).
        let from = idat.offset + 8 + 2048
        for index in from..<(from + 64) { damaged[index] = 0xFF }
        let image = try PNGCoder().decode(Data(damaged), options: Self.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        #expect(image.issues.contains { $0.kind == .checksumMismatch })
        #expect(Self.topRows(image.pixels, 7) == Self.topRows(reference, 7))
        #expect(image.pixels.bytes != reference.bytes)
        #expect(Self.codingError { try PNGCoder().decode(Data(damaged), options: Self.strict) }?.code == .corruptData)
    }

    @Test func pngWithoutIENDDecodesWhole() throws {
        let (clean, reference) = try Self.cleanPNG()
        let iend = try #require(Self.chunks(clean).last)
        #expect(iend.type == "IEND")
        let cut = clean.prefix(iend.offset)
        let image = try PNGCoder().decode(cut, options: Self.lenient)
        #expect(image.pixels.bytes == reference.bytes)
        #expect(image.issues.map(\.kind) == [.truncated])
        #expect(image.issues.first?.firstDamagedRow == nil)
        #expect(Self.codingError { try PNGCoder().decode(cut, options: Self.strict) }?.code == .truncatedData)
    }

    @Test func pngWithoutPixelsOrCutInItsHeaderIsStillRefused() throws {
        let (clean, _) = try Self.cleanPNG()
        let chunks = Self.chunks(clean)
        let idat = try #require(chunks.first { $0.type == "IDAT" })
        let iend = try #require(chunks.last)
        let noImageData = clean.prefix(idat.offset) + clean[iend.offset...]
        let cutInIDATHeader = clean.prefix(idat.offset + 10)
        for data in [clean.prefix(20), clean.prefix(idat.offset), Data(noImageData), cutInIDATHeader] {
            #expect(Self.codingError { try PNGCoder().decode(data, options: Self.lenient) } != nil)
        }
        var badSignature = [UInt8](clean)
        badSignature[1] = 0x51
        #expect(Self.codingError { try PNGCoder().decode(Data(badSignature), options: Self.lenient) } != nil)
    }

    // MARK: - GIF

    /// A clean two-frame GIF of noise and its decode.
    static func cleanGIF() throws -> (data: Data, image: Image) {
        let frames = [ImageFrame(pixels: noise(seed: 1), duration: .milliseconds(100)),
                      ImageFrame(pixels: noise(seed: 2), duration: .milliseconds(100))]
        let data = try GIFCoder().encode(Image(frames: frames), as: .gif, options: ImageEncodingOptions())
        return (data, try GIFCoder().decode(data, options: strict))
    }

    @Test func gifCutInItsSecondFrameKeepsTheFirstFrameAndTheSecondsRows() throws {
        let (clean, reference) = try Self.cleanGIF()
        try #require(reference.frames.count == 2)
        let cut = clean.prefix(clean.count - clean.count / 4) // inside the second frame's image data
        let image = try GIFCoder().decode(cut, options: Self.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        #expect(image.frames.count == 2)
        #expect(image.frames[0].pixels.bytes == reference.frames[0].pixels.bytes)
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .truncated)
        let row = try #require(issue.firstDamagedRow)
        #expect(row > 0 && row < 64)
        #expect(Self.topRows(image.frames[1].pixels, row) == Self.topRows(reference.frames[1].pixels, row))
        #expect(Self.codingError { try GIFCoder().decode(cut, options: Self.strict) } != nil)
    }

    @Test func gifWithGarbageAsItsLastRecordKeepsTheFramesBeforeIt() throws {
        let (clean, reference) = try Self.cleanGIF()
        var damaged = [UInt8](clean)
        #expect(damaged.last == 0x3B)
        damaged[damaged.count - 1] = 0x99 // no such record type
        damaged += [0x12, 0x34]
        let image = try GIFCoder().decode(Data(damaged), options: Self.lenient)
        #expect(image.frames.count == 2)
        #expect(image.frames.map(\.pixels.bytes) == reference.frames.map(\.pixels.bytes))
        #expect(image.issues.map(\.kind) == [.framesDropped])
        #expect(Self.codingError { try GIFCoder().decode(Data(damaged), options: Self.strict) }?.code == .corruptData)
    }

    @Test func gifCutInsideItsHeaderOrFirstFrameDescriptorIsStillRefused() throws {
        let (clean, _) = try Self.cleanGIF()
        for length in [6, 12] {
            #expect(Self.codingError { try GIFCoder().decode(clean.prefix(length), options: Self.lenient) } != nil)
        }
    }

    // MARK: - The value type

    @Test func issueDescribesItselfInOneLine() {
        let issue = DecodingIssue(.truncated, firstDamagedRow: 120, detail: "Premature end of JPEG file")
        #expect(issue.description == "truncated at row 120: Premature end of JPEG file")
        #expect(DecodingIssue(.checksumMismatch, detail: "IDAT: CRC error").description == "checksumMismatch: IDAT: CRC error")
    }
}
