import Foundation
import Testing
@testable import WebImageCoders

/// GIF's LZW decompression (`GIFLZW`), which replaced giflib's `DGifGetLine`: streams written by a
/// reference compressor in this file (with and without clearing a full table) decode to the indices that
/// went in, frames are clipped to the canvas on the new path too, and short and corrupt streams give
/// typed errors. (Streams of giflib's own encoder are decoded by the round trips of `GIFCoderTests+Encoding`.)
@Suite struct GIFLZWTests {
    /// Indices of `count` pixels: noise over `colors` colours (fills the code table fast), long runs
    /// (long strings and the code-defined-by-itself case), or a mix.
    static func indices(count: Int, colors: Int, pattern: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        func next() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(state % UInt64(colors))
        }
        var run = 0, value = 0
        return (0..<count).map { i in
            switch pattern {
            case 0: return UInt8(next())
            case 1: return UInt8((i / 97) % colors)
            default:
                if run == 0 { run = next() * 7 + 1; value = next() }
                run -= 1
                return UInt8(value)
            }
        }
    }

    /// A plain GIF LZW compressor: one clear code first; when the table is full it either clears
    /// (as giflib does) or keeps the table and goes on with 12-bit codes (a "deferred clear").
    static func compress(_ indices: [UInt8], minimumCodeSize: Int, clearsWhenFull: Bool, endCode: Bool = true) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var output: [UInt8] = [], bits = 0, bitCount = 0
        var codeSize = minimumCodeSize + 1
        func write(_ code: Int) {
            bits |= code << bitCount
            bitCount += codeSize
            while bitCount >= 8 { output.append(UInt8(bits & 0xFF)); bits >>= 8; bitCount -= 8 }
        }
        var table: [Int: Int] = [:], next = clear + 2
        write(clear)
        guard var prefix = indices.first.map(Int.init) else { write(end); return output }
        for byte in indices.dropFirst() {
            let key = prefix << 8 | Int(byte)
            if let code = table[key] { prefix = code; continue }
            write(prefix)
            if next < 4096 {
                table[key] = next
                next += 1
                if next > 1 << codeSize && codeSize < 12 { codeSize += 1 }
            } else if clearsWhenFull {
                write(clear)
                table = [:]
                next = clear + 2
                codeSize = minimumCodeSize + 1
            }
            prefix = Int(byte)
        }
        write(prefix)
        if endCode { write(end) }
        if bitCount > 0 { output.append(UInt8(bits & 0xFF)) }
        return output
    }

    static func decode(_ stream: [UInt8], minimumCodeSize: Int, count: Int) -> ([UInt8], GIFLZW.Outcome) {
        var workspace = [UInt8](repeating: 0xEE, count: GIFLZW.workspaceSize(for: count))
        let outcome = stream.withUnsafeBytes { input in
            workspace.withUnsafeMutableBufferPointer {
                GIFLZW.decode(input, minimumCodeSize: minimumCodeSize, count: count, workspace: $0)
            }
        }
        return (Array(workspace[GIFLZW.outputOffset..<(GIFLZW.outputOffset + count)]), outcome)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func streamsOfEveryCodeSizeDecodeToTheIndicesThatWentIn(minimumCodeSize: Int) {
        for pattern in 0...2 {
            for clearsWhenFull in [true, false] {
                // Enough pixels that noise fills the 4,096-entry table (two colours need the most).
                let count = minimumCodeSize == 1 ? 120_000 : 30_000
                let input = Self.indices(count: count, colors: 1 << minimumCodeSize, pattern: pattern, seed: UInt64(minimumCodeSize * 10 + pattern))
                let stream = Self.compress(input, minimumCodeSize: minimumCodeSize, clearsWhenFull: clearsWhenFull)
                let (output, outcome) = Self.decode(stream, minimumCodeSize: minimumCodeSize, count: input.count)
                #expect(outcome == .filled, "pattern \(pattern), clears \(clearsWhenFull)")
                #expect(output == input, "pattern \(pattern), clears \(clearsWhenFull)")
            }
        }
    }

    @Test func decodingStopsWhenTheOutputIsFullAndReportsAShortStream() {
        let input = Self.indices(count: 5_000, colors: 16, pattern: 2, seed: 3)
        let stream = Self.compress(input, minimumCodeSize: 4, clearsWhenFull: true)
        let (prefix, filled) = Self.decode(stream, minimumCodeSize: 4, count: 1_234)
        #expect(filled == .filled && prefix == Array(input.prefix(1_234)))
        let (_, short) = Self.decode(stream, minimumCodeSize: 4, count: 6_000)
        #expect(short == .endedEarly(5_000))
        // Cut in the middle: the bytes run out before the end code.
        let (_, cut) = Self.decode(Array(stream.prefix(stream.count / 2)), minimumCodeSize: 4, count: 5_000)
        guard case .ranOut(let decoded) = cut else { Issue.record("\(cut)"); return }
        #expect(decoded > 0 && decoded < 5_000)
    }

    @Test func aCodeBeyondTheTableIsInvalid() {
        // 3-bit codes (minimum size 2): clear (4), literal 1, then 7 while the next free code is 6.
        let stream: [UInt8] = [0xCC, 0x01]  // 4 | 1 << 3 | 7 << 6, least significant bit first
        #expect(Self.decode(stream, minimumCodeSize: 2, count: 4).1 == .invalidCode(1))  // after the literal
        // A table code straight after a clear has no previous string to extend.
        #expect(Self.decode([0x34], minimumCodeSize: 2, count: 4).1 == .invalidCode(0))  // clear, 6
    }

    // MARK: Through the coder

    /// A one-frame GIF of `width × height` indices over a grey palette of `1 << minimumCodeSize` colours;
    /// the frame rectangle may differ from the canvas, and its rows may be stored interlaced.
    static func gif(canvas: (Int, Int), frame: (left: Int, top: Int, width: Int, height: Int), interlaced: Bool,
                    minimumCodeSize: Int, storedIndices: [UInt8], endCode: Bool = true) -> Data {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        let tableBits = max(minimumCodeSize, 1)
        var bytes = Array("GIF89a".utf8) + le16(canvas.0) + le16(canvas.1) + [0xF0 | UInt8(tableBits - 1), 0, 0]
        for i in 0..<(1 << tableBits) { let grey = UInt8(i * 255 / ((1 << tableBits) - 1)); bytes += [grey, grey, grey] }
        bytes += [0x2C] + le16(frame.left) + le16(frame.top) + le16(frame.width) + le16(frame.height) + [interlaced ? 0x40 : 0]
        bytes.append(UInt8(minimumCodeSize))
        var stream = compress(storedIndices, minimumCodeSize: minimumCodeSize, clearsWhenFull: false, endCode: endCode)[...]
        while !stream.isEmpty {
            let block = stream.prefix(255)
            bytes.append(UInt8(block.count))
            bytes += block
            stream = stream.dropFirst(block.count)
        }
        bytes += [0, 0x3B]
        return Data(bytes)
    }

    @Test func interlacedRowsLandWhereThePassesPutThem() throws {
        let width = 7, height = 19
        // Row y is filled with index y (16 colours), stored in pass order.
        let passes = [(0, 8), (4, 8), (2, 4), (1, 2)]
        let order = passes.flatMap { stride(from: $0.0, to: height, by: $0.1) }
        let stored = order.flatMap { y in [UInt8](repeating: UInt8(y % 16), count: width) }
        let image = try GIFCoder().decode(Self.gif(canvas: (width, height), frame: (0, 0, width, height), interlaced: true,
                                                   minimumCodeSize: 4, storedIndices: stored))
        for y in 0..<height {
            let grey = UInt8((y % 16) * 255 / 15)
            #expect(image.pixels[3, y] == RGBA(red: grey, green: grey, blue: grey), "row \(y)")
        }
    }

    @Test func aFrameLargerThanTheCanvasIsClippedThroughGiflibsRowDecoder() throws {
        // A 40×30 frame at (2, 1) on a 10×8 canvas: its indices would take more bytes than the canvas
        // has pixels, so giflib decodes it a row at a time; the result is the same clipping.
        let stored = Self.indices(count: 40 * 30, colors: 256, pattern: 0, seed: 9)
        let image = try GIFCoder().decode(Self.gif(canvas: (10, 8), frame: (2, 1, 40, 30), interlaced: false,
                                                   minimumCodeSize: 8, storedIndices: stored))
        #expect(image.pixels[0, 0].alpha == 0 && image.pixels[1, 5].alpha == 0)
        for y in 1..<8 {
            for x in 2..<10 {
                let grey = stored[(y - 1) * 40 + (x - 2)]
                #expect(image.pixels[x, y] == RGBA(red: grey, green: grey, blue: grey), "(\(x), \(y))")
            }
        }
    }

    @Test func framesReachingPastTheCanvasAreClippedOnTheLZWPath() throws {
        // A 6×5 frame at (3, 2) on an 8×6 canvas (30 indices, fewer than the canvas's 48 pixels): its last two
        // columns and bottom row lie outside; once stored top to bottom, once interlaced.
        let stored = Self.indices(count: 30, colors: 256, pattern: 0, seed: 11)
        for interlaced in [false, true] {
            let rows = interlaced ? [0, 4, 2, 1, 3] : [0, 1, 2, 3, 4]
            let order = rows.flatMap { y in stored[(y * 6)..<(y * 6 + 6)] }
            let image = try GIFCoder().decode(Self.gif(canvas: (8, 6), frame: (3, 2, 6, 5), interlaced: interlaced,
                                                       minimumCodeSize: 8, storedIndices: order))
            for y in 0..<6 {
                for x in 0..<8 {
                    let inside = x >= 3 && y >= 2
                    let grey = inside ? stored[(y - 2) * 6 + (x - 3)] : 0
                    let expected = inside ? RGBA(red: grey, green: grey, blue: grey) : RGBA.transparent
                    #expect(image.pixels[x, y] == expected, "(\(x), \(y)), interlaced \(interlaced)")
                }
            }
        }
    }

    @Test func aFrameWhoseDataEndsEarlyIsTruncatedAndABadCodeIsCorruptWhenStrict() throws {
        let stored = Self.indices(count: 50, colors: 4, pattern: 0, seed: 5)
        let strict = ImageDecodingOptions(strict: true)
        // The stream holds 50 indices, the frame needs 8×8 = 64.
        let short = Self.gif(canvas: (8, 8), frame: (0, 0, 8, 8), interlaced: false, minimumCodeSize: 2, storedIndices: stored)
        let error = #expect(throws: ImageCodingError.self) { try GIFCoder().decode(short, options: strict) }
        #expect(error?.code == .truncatedData)
        // Without its end code the same data simply runs out: a defect, not a download cut short.
        let noEnd = Self.gif(canvas: (8, 8), frame: (0, 0, 8, 8), interlaced: false, minimumCodeSize: 2, storedIndices: stored,
                             endCode: false)
        let ranOut = #expect(throws: ImageCodingError.self) { try GIFCoder().decode(noEnd, options: strict) }
        #expect(ranOut?.code == .corruptData)
        var bad = [UInt8](Self.gif(canvas: (2, 2), frame: (0, 0, 2, 2), interlaced: false, minimumCodeSize: 2,
                                   storedIndices: [0, 1, 2, 3]))
        // Replace the image data with clear, literal 1, code 7 (beyond the table), end.
        let start = 6 + 7 + 3 * 4 + 10  // signature, screen, 4-colour table, image descriptor
        bad.replaceSubrange(start..<bad.count, with: [2, 2, 0xCC, 0x01, 0, 0x3B])
        let corrupt = #expect(throws: ImageCodingError.self) { try GIFCoder().decode(Data(bad), options: strict) }
        #expect(corrupt?.code == .corruptData)
    }
}
