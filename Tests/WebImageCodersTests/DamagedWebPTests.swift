import Foundation
import Testing
@testable import WebImageCoders

/// Issue 31 for WebP, as Chromium 156 shows it: a file whose bitstream breaks shows the rows decoded before the
/// damage (the rest transparent), an animation whose frame does not decode plays the frames before it, and a file
/// shorter than its RIFF size (a cut) is refused, as Chromium draws nothing for it; `strict: true` refuses all of
/// them. The fixtures are our own clean encodes, damaged here.
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

    /// `data` with its bytes from `fraction` of the way on overwritten with 0xFF: the file keeps its length (its
    /// RIFF size stays true), its bitstream breaks there.
    static func breaking(_ data: Data, from fraction: Double) -> Data {
        var bytes = [UInt8](data)
        for index in Int(Double(bytes.count) * fraction)..<bytes.count { bytes[index] = 0xFF }
        return Data(bytes)
    }

    /// libwebp's lossy decoder does not notice damaged residual data where it starts (it decodes it into wrong
    /// pixels until the data runs out), so the issue's row is where libwebp noticed it, not a bound on what is right.
    @Test func aLossyWebPWhoseBitstreamBreaksShowsWhatLibwebpDecodesTheRestTransparent() throws {
        let (clean, _) = try Self.cleanWebP(lossless: false)
        let damaged = Self.breaking(clean, from: 0.5)
        let image = try WebPCoder().decode(damaged, options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 128))
        let row = try #require(image.issues.first?.firstDamagedRow)
        #expect(row > 8 && row < 128, "libwebp noticed the damage at row \(row)")
        #expect(image.pixels.bytes[(row * 64 * 4)...].allSatisfy { $0 == 0 }, "the rest is transparent")
        #expect(Fixtures.codingError { try WebPCoder().decode(damaged, options: Fixtures.strict) } != nil)
        let thumbnail = try WebPCoder().decode(damaged, options: ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 32, height: 64)))
        #expect(thumbnail.pixelSize == PixelSize(width: 32, height: 64) && !thumbnail.issues.isEmpty)
    }

    @Test func aWebPShorterThanItsRIFFSizeIsRefusedAsChromiumRefusesIt() throws {
        let (lossy, _) = try Self.cleanWebP(lossless: false)
        let (lossless, _) = try Self.cleanWebP(lossless: true)
        let (animation, _, offsets) = try Self.cleanAnimation()
        let cuts = [lossy.prefix(lossy.count / 2), lossless.prefix(lossless.count / 2), animation.prefix(offsets[2] + 100),
                    Self.settingRIFFSize(lossy, to: lossy.count - 8 + 1000)]
        for cut in cuts {
            #expect(Fixtures.codingError { try WebPCoder().decode(cut, options: Fixtures.lenient) } != nil, "\(cut.count) bytes")
        }
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
}
