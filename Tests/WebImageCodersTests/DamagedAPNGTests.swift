import Foundation
import Testing
@testable import WebImageCoders

/// Issue 31 for APNG: a cut file or a broken frame plays the frames before the damage (a frame cut short with
/// the rows it has, over the canvas as it was), the frames after are dropped, and a bad CRC is only reported;
/// `strict: true` refuses all of them. The fixture is assembled here from our own clean PNG encodes.
@Suite struct DamagedAPNGTests {
    typealias Fixtures = DamagedImageTests

    /// One chunk of an APNG being assembled.
    struct Chunk {
        var type: String
        var payload: [UInt8]
    }

    /// Three 64×64 frames of noise, each covering the canvas (blend source, dispose none, 100 ms), as chunks.
    static func cleanChunks() throws -> [Chunk] {
        func bigEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var chunks: [Chunk] = []
        var sequence = 0
        for index in 0..<3 {
            let still = try PNGCoder().encode(Image(pixels: Fixtures.noise(seed: UInt32(index + 1))), as: .png, options: ImageEncodingOptions())
            let parts = Fixtures.chunks(still).map { chunk in
                Chunk(type: chunk.type, payload: [UInt8](still[(chunk.offset + 8)..<(chunk.offset + 8 + chunk.length)]))
            }
            if index == 0 {
                chunks.append(try #require(parts.first { $0.type == "IHDR" }))
                chunks.append(Chunk(type: "acTL", payload: bigEndian(3, 4) + bigEndian(0, 4)))
            }
            let control = bigEndian(sequence, 4) + bigEndian(64, 4) + bigEndian(64, 4) + bigEndian(0, 4) + bigEndian(0, 4)
                + bigEndian(1, 2) + bigEndian(10, 2) + [0, 0]
            chunks.append(Chunk(type: "fcTL", payload: control))
            sequence += 1
            for data in parts where data.type == "IDAT" {
                if index == 0 {
                    chunks.append(data)
                } else {
                    chunks.append(Chunk(type: "fdAT", payload: bigEndian(sequence, 4) + data.payload))
                    sequence += 1
                }
            }
        }
        chunks.append(Chunk(type: "IEND", payload: []))
        return chunks
    }

    /// The file for `chunks`, every CRC computed.
    static func file(_ chunks: [Chunk]) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for chunk in chunks {
            let type = Array(chunk.type.utf8)
            bytes += (0..<4).reversed().map { UInt8(truncatingIfNeeded: chunk.payload.count >> (8 * $0)) } + type + chunk.payload
            let crc = PNGCRC32.checksum(type + chunk.payload)
            bytes += (0..<4).reversed().map { UInt8(truncatingIfNeeded: crc >> (8 * UInt32($0))) }
        }
        return Data(bytes)
    }

    /// The clean file and its strict decode.
    static func cleanAPNG() throws -> (data: Data, image: Image) {
        let data = file(try cleanChunks())
        return (data, try PNGCoder().decode(data, options: Fixtures.strict))
    }

    /// Where the data of the `index`-th chunk of `type` starts in `data`, and its length.
    static func chunk(_ type: String, _ index: Int, in data: Data) throws -> (offset: Int, length: Int) {
        let found = try #require(Fixtures.chunks(data).filter { $0.type == type }.dropFirst(index).first)
        return (found.offset + 8, found.length)
    }

    @Test func apngCutInItsSecondFrameKeepsTheFirstFrameAndTheSecondsRowsOverIt() throws {
        let (clean, reference) = try Self.cleanAPNG()
        try #require(reference.frames.count == 3)
        let fdat = try Self.chunk("fdAT", 0, in: clean)
        let cut = clean.prefix(fdat.offset + fdat.length / 2)
        let image = try PNGCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.pixelSize == PixelSize(width: 64, height: 64))
        #expect(image.frames.count == 2)
        #expect(image.frames[0].pixels.bytes == reference.frames[0].pixels.bytes)
        #expect(image.issues.map(\.kind) == [.truncated, .framesDropped])
        let row = try #require(image.issues.first?.firstDamagedRow)
        #expect(row > 8 && row < 56, "cut at half the frame's data, damaged from row \(row)")
        let rowBytes = 64 * 4
        #expect(Fixtures.topRows(image.frames[1].pixels, row) == Fixtures.topRows(reference.frames[1].pixels, row))
        #expect(image.frames[1].pixels.bytes[(row * rowBytes)...] == reference.frames[0].pixels.bytes[(row * rowBytes)...],
                "below the cut the canvas shows the first frame")
        #expect(Fixtures.codingError { try PNGCoder().decode(cut, options: Fixtures.strict) }?.code == .truncatedData)
    }

    @Test func apngCutInItsFirstFrameShowsItsRowsTheRestTransparent() throws {
        let (clean, reference) = try Self.cleanAPNG()
        let idat = try Self.chunk("IDAT", 0, in: clean)
        let cut = clean.prefix(idat.offset + idat.length / 2)
        let image = try PNGCoder().decode(cut, options: Fixtures.lenient)
        #expect(image.frames.count == 1)
        let row = try #require(image.issues.first?.firstDamagedRow)
        #expect(image.issues.first?.kind == .truncated)
        #expect(Fixtures.topRows(image.pixels, row) == Fixtures.topRows(reference.frames[0].pixels, row))
        #expect(image.pixels.bytes[(row * 64 * 4)...].allSatisfy { $0 == 0 })
    }

    @Test func apngWithABrokenFrameControlPlaysTheFramesBeforeIt() throws {
        var chunks = try Self.cleanChunks()
        let third = try #require(chunks.indices.filter { chunks[$0].type == "fcTL" }.dropFirst(2).first)
        chunks[third].payload.replaceSubrange(0..<4, with: [0, 0, 0, 1]) // a sequence number going back
        let damaged = Self.file(chunks)
        let (_, reference) = try Self.cleanAPNG()
        let image = try PNGCoder().decode(damaged, options: Fixtures.lenient)
        #expect(image.frames.map(\.pixels.bytes) == reference.frames.prefix(2).map(\.pixels.bytes))
        #expect(image.issues.map(\.kind) == [.framesDropped])
        #expect(Fixtures.codingError { try PNGCoder().decode(damaged, options: Fixtures.strict) }?.code == .corruptData)
    }

    @Test func apngWithGarbageInAFramesDataKeepsEveryFrameAndTheRowsBeforeTheGarbage() throws {
        let (clean, reference) = try Self.cleanAPNG()
        let fdat = try Self.chunk("fdAT", 0, in: clean)
        var bytes = [UInt8](clean)
        let from = fdat.offset + 4 + 2048 // past the sequence number, 2 KiB into the zlib stream: about row 8
        for index in from..<(from + 64) { bytes[index] = 0xFF }
        // The fdAT's CRC is now wrong too. As for a still PNG, Chromium shows what zlib makes of the garbage (it checks
        // neither the CRC nor zlib's Adler-32), so the frame stays, and the frames after it.
        let damaged = Data(bytes)
        let image = try PNGCoder().decode(damaged, options: Fixtures.lenient)
        #expect(image.frames.count == reference.frames.count)
        #expect(image.frames[0].pixels.bytes == reference.frames[0].pixels.bytes)
        #expect(image.issues.map(\.kind) == [.checksumMismatch])
        #expect(Fixtures.topRows(image.frames[1].pixels, 7) == Fixtures.topRows(reference.frames[1].pixels, 7))
        #expect(Fixtures.codingError { try PNGCoder().decode(damaged, options: Fixtures.strict) }?.code == .corruptData)
    }

    @Test func apngWithABadChecksumPlaysEveryFrame() throws {
        let (clean, reference) = try Self.cleanAPNG()
        let fdat = try Self.chunk("fdAT", 1, in: clean)
        var bytes = [UInt8](clean)
        bytes[fdat.offset + fdat.length + 3] ^= 0xFF // the CRC's last byte
        let image = try PNGCoder().decode(Data(bytes), options: Fixtures.lenient)
        #expect(image.frames.map(\.pixels.bytes) == reference.frames.map(\.pixels.bytes))
        #expect(image.issues.map(\.kind) == [.checksumMismatch])
        #expect(Fixtures.codingError { try PNGCoder().decode(Data(bytes), options: Fixtures.strict) }?.code == .corruptData)
    }

    @Test func apngCutBeforeAnyFrameDataIsStillRefused() throws {
        let (clean, _) = try Self.cleanAPNG()
        let idat = try Self.chunk("IDAT", 0, in: clean)
        for length in [20, idat.offset - 8, idat.offset + 10] {
            #expect(Fixtures.codingError { try PNGCoder().decode(clean.prefix(length), options: Fixtures.lenient) } != nil,
                    "cut after \(length) bytes")
        }
    }

    @Test func apngCutAnywhereEitherDecodesAtItsFullSizeOrIsRefused() throws {
        let (clean, _) = try Self.cleanAPNG()
        for length in stride(from: 0, to: clean.count, by: clean.count / 80) {
            do {
                let image = try PNGCoder().decode(clean.prefix(length), options: Fixtures.lenient)
                #expect(image.pixelSize == PixelSize(width: 64, height: 64) && !image.issues.isEmpty, "cut after \(length) bytes")
            } catch {
                #expect(error is ImageCodingError, "cut after \(length) bytes: \(error)")
            }
        }
    }

    @Test func aCutAPNGHasNoFrameSourceSoItIsDecodedWholeUnlessStrict() throws {
        let (clean, _) = try Self.cleanAPNG()
        let fdat = try Self.chunk("fdAT", 0, in: clean)
        let cut = clean.prefix(fdat.offset + fdat.length / 2)
        #expect(try PNGCoder().makeAnimatedFrameSource(for: cut, options: Fixtures.lenient) == nil)
        #expect(try PNGCoder().makeAnimatedFrameSource(for: clean, options: Fixtures.lenient)?.frameCount == 3)
        #expect(throws: ImageCodingError.self) { try PNGCoder().makeAnimatedFrameSource(for: cut, options: Fixtures.strict) }
    }
}
