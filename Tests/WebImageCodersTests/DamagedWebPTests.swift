import Foundation
import Testing
@testable import WebImageCoders

/// Issue 31 for WebP: a file cut inside its bitstream shows the rows decoded before the cut (the rest
/// transparent), an animation cut inside a frame plays the frames before it, and a RIFF size larger than the
/// file is let pass; `strict: true` refuses all of them. The fixtures are our own clean encodes, damaged here.
@Suite struct DamagedWebPTests {
    typealias Fixtures = DamagedImageTests

    /// A clean still WebP of 64×128 noise (lossy or lossless) and its decode.
    static func cleanWebP(lossless: Bool) throws -> (data: Data, pixels: PixelBuffer) {
        let options = ImageEncodingOptions(quality: 0.9, lossless: lossless)
        let data = try WebPCoder().encode(Image(pixels: Fixtures.noise(width: 64, height: 128)), as: .webp, options: options)
        return (data, try WebPCoder().decode(data, options: Fixtures.strict).pixels)
    }

    /// `data` with its RIFF size (bytes 4–7, little-endian) set to `size`.
    static func settingRIFFSize(_ data: Data, to size: Int) -> Data {
        var bytes = [UInt8](data)
        for index in 0..<4 { bytes[4 + index] = UInt8(truncatingIfNeeded: size >> (8 * index)) }
        return Data(bytes)
    }

    @Test(arguments: [false, true])
    func webPCutInItsBitstreamShowsTheRowsBeforeTheCutTheRestTransparent(lossless: Bool) throws {
        let (clean, reference) = try Self.cleanWebP(lossless: lossless)
        let cut = clean.prefix(clean.count / 2)
        let image = try WebPCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 128))
        let issue = try #require(image.issues.first)
        #expect(issue.kind == .truncated)
        let row = try #require(issue.firstDamagedRow)
        #expect(row > 8 && row < 120, "cut at half the file, damaged from row \(row)")
        #expect(Fixtures.topRows(image.pixels, row) == Fixtures.topRows(reference, row))
        #expect(image.pixels.bytes[(row * 64 * 4)...].allSatisfy { $0 == 0 }, "the rest is transparent")
        #expect(image.hasAlpha)
        #expect(Fixtures.codingError { try WebPCoder().decode(cut, options: Fixtures.strict) }?.code == .truncatedData)
    }

    @Test func webPCutInItsBitstreamShrinksOnLoadWithTheRowCountedInTheThumbnail() throws {
        let (clean, _) = try Self.cleanWebP(lossless: false)
        let cut = clean.prefix(clean.count / 2)
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 32, height: 64))
        let reference = try WebPCoder().decode(clean, options: options)
        let image = try WebPCoder().decode(cut, options: options)
        #expect(image.pixelSize == PixelSize(width: 32, height: 64))
        let row = try #require(image.issues.first?.firstDamagedRow)
        #expect(row > 4 && row < 60, "rows counted in the 64-row thumbnail: \(row)")
        #expect(Fixtures.topRows(image.pixels, row) == Fixtures.topRows(reference.pixels, row))
        #expect(image.pixels.bytes[(row * 32 * 4)...].allSatisfy { $0 == 0 })
    }

    @Test func webPWithARIFFSizeLargerThanTheFileDecodesWhole() throws {
        let (clean, reference) = try Self.cleanWebP(lossless: false)
        let damaged = Self.settingRIFFSize(clean, to: clean.count - 8 + 1000)
        let image = try WebPCoder().decode(damaged, options: Fixtures.lenient)
        #expect(image.pixels.bytes == reference.bytes)
        #expect(image.issues.map(\.kind) == [.truncated])
        #expect(image.issues.first?.firstDamagedRow == nil)
        #expect(Fixtures.codingError { try WebPCoder().decode(damaged, options: Fixtures.strict) }?.code == .truncatedData)
    }

    /// A clean three-frame animated WebP of noise, its decode, and where its `ANMF` chunks start.
    static func cleanAnimation() throws -> (data: Data, image: Image, frameOffsets: [Int]) {
        let frames = (1...3).map { ImageFrame(pixels: Fixtures.noise(seed: UInt32($0)), duration: .milliseconds(100)) }
        let data = try WebPCoder().encode(Image(frames: frames), as: .webp, options: ImageEncodingOptions(quality: 0.8))
        let bytes = [UInt8](data)
        var offsets: [Int] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = bytes[(offset + 4)..<(offset + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self) == "ANMF" { offsets.append(offset) }
            offset += 8 + size + size % 2
        }
        return (data, try WebPCoder().decode(data, options: Fixtures.strict), offsets)
    }

    @Test func animatedWebPCutInsideItsThirdFramePlaysTheFirstTwo() throws {
        let (clean, reference, offsets) = try Self.cleanAnimation()
        try #require(reference.frames.count == 3 && offsets.count == 3)
        let cut = clean.prefix(offsets[2] + 100)
        let image = try WebPCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        #expect(image.frames.map(\.pixels.bytes) == reference.frames.prefix(2).map(\.pixels.bytes))
        #expect(image.frames.map(\.duration) == [.milliseconds(100), .milliseconds(100)])
        #expect(image.issues.map(\.kind) == [.framesDropped])
        #expect(Fixtures.codingError { try WebPCoder().decode(cut, options: Fixtures.strict) }?.code == .truncatedData)
    }

    @Test func animatedWebPWithABrokenFramePlaysTheFramesBeforeIt() throws {
        let (clean, reference, offsets) = try Self.cleanAnimation()
        var damaged = [UInt8](clean)
        // The second frame's first chunk (after the ANMF chunk's header and its 16 bytes of frame fields) must be
        // its VP8 bitstream; its first partition is made to claim more bytes than the chunk has after the
        // frame header, which the demuxer lets pass and the frame's decoder refuses.
        let chunk = offsets[1] + 8 + 16
        try #require(String(decoding: damaged[chunk..<(chunk + 4)], as: UTF8.self) == "VP8 ")
        let chunkSize = damaged[(chunk + 4)..<(chunk + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
        let tag = chunk + 8
        let bits = (Int(damaged[tag]) | Int(damaged[tag + 1]) << 8 | Int(damaged[tag + 2]) << 16) & 0x1F | (chunkSize - 5) << 5
        for index in 0..<3 { damaged[tag + index] = UInt8(truncatingIfNeeded: bits >> (8 * index)) }
        let image = try WebPCoder().decode(Data(damaged), options: Fixtures.lenient)
        #expect(image.frames.count == 1)
        #expect(image.frames[0].pixels.bytes == reference.frames[0].pixels.bytes)
        #expect(image.issues.map(\.kind) == [.framesDropped])
        #expect(Fixtures.codingError { try WebPCoder().decode(Data(damaged), options: Fixtures.strict) } != nil)
    }

    @Test func webPCutInsideItsHeadersOrBeforeAnyRowIsStillRefused() throws {
        let (clean, _) = try Self.cleanWebP(lossless: false)
        for length in [8, 16, 24, 40] {
            #expect(Fixtures.codingError { try WebPCoder().decode(clean.prefix(length), options: Fixtures.lenient) } != nil,
                    "cut after \(length) bytes")
        }
        let (animation, _, offsets) = try Self.cleanAnimation()
        #expect(Fixtures.codingError { try WebPCoder().decode(animation.prefix(offsets[0] + 40), options: Fixtures.lenient) } != nil)
    }

    @Test func webPCutAnywhereEitherDecodesAtItsFullSizeOrIsRefused() throws {
        let files = [try Self.cleanWebP(lossless: false).data, try Self.cleanWebP(lossless: true).data, try Self.cleanAnimation().data]
        for file in files {
            let size = try WebPCoder().decode(file, options: Fixtures.strict).pixelSize
            for length in stride(from: 0, to: file.count, by: max(file.count / 60, 1)) {
                do {
                    let image = try WebPCoder().decode(file.prefix(length), options: Fixtures.lenient)
                    #expect(image.pixelSize == size && !image.issues.isEmpty, "cut after \(length) of \(file.count) bytes")
                } catch {
                    #expect(error is ImageCodingError, "cut after \(length) bytes: \(error)")
                }
            }
        }
    }

    @Test func aCutAnimatedWebPHasNoFrameSourceSoItIsDecodedWholeUnlessStrict() throws {
        let (clean, _, offsets) = try Self.cleanAnimation()
        let cut = clean.prefix(offsets[2] + 100)
        #expect(try WebPCoder().makeAnimatedFrameSource(for: cut, options: Fixtures.lenient) == nil)
        #expect(try WebPCoder().makeAnimatedFrameSource(for: clean, options: Fixtures.lenient)?.frameCount == 3)
        #expect(throws: ImageCodingError.self) { try WebPCoder().makeAnimatedFrameSource(for: cut, options: Fixtures.strict) }
        #expect(try ImageCodersManager.shared.decode(cut, options: ImageDecodingOptions(firstFrameOnly: true)).frames.count == 1)
    }
}
