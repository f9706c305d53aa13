/// GIF's LZW decompression, done without giflib's per-pixel string stack (giflib's `DGifGetLine` took
/// about 60 % of an animated GIF's decode time).
///
/// Every code's string is a stretch of bytes already written: a new code is the previous code's string
/// plus one byte, and that byte is the first of the next string, written just after it. So the table
/// keeps, for each code, where its string starts and how long it is, and emitting a code is a copy from
/// earlier output, as in LZ77. The single-byte strings of the literal codes sit in a table at the start
/// of the caller's workspace, before the output, so that every code is emitted the same way. The whole
/// frame's indices must stay addressable: the caller gives a workspace of the frame's size (and falls
/// back to giflib for frames too large for that).
enum GIFLZW {
    /// The largest code GIF allows is 12 bits.
    private static let maximumCodeCount = 4096
    /// Bytes copied at once for short strings; the workspace has this much room after the output.
    private static let chunk = 16
    /// Where the output starts in the workspace: after the 256 literal bytes and room for one chunk
    /// read past the last of them.
    static let outputOffset = 256 + chunk

    /// The workspace ``decode(_:minimumCodeSize:count:workspace:)`` needs for `count` indices.
    static func workspaceSize(for count: Int) -> Int { outputOffset + count + chunk }

    /// How decompression ended.
    enum Outcome: Equatable {
        /// Every index asked for was written.
        case filled
        /// An end code came after this many indices: fewer than asked for.
        case endedEarly(Int)
        /// The bytes ran out, without an end code, after this many indices: fewer than asked for.
        case ranOut(Int)
        /// A code named an entry the table does not have yet, after this many indices: the data is corrupt.
        case invalidCode(Int)
    }

    /// Decompresses `input` (the frame's sub-blocks joined, without their length bytes) with the
    /// file's minimum code size (1…8), writing `count` indices from ``outputOffset`` on in `workspace`
    /// (at least ``workspaceSize(for:)`` bytes, at most `Int32.max`: offsets are kept in 32 bits) and
    /// stopping once they are written.
    static func decode(
        _ input: UnsafeRawBufferPointer, minimumCodeSize: Int, count: Int, workspace: UnsafeMutableBufferPointer<UInt8>
    ) -> Outcome {
        precondition((1...8).contains(minimumCodeSize) && workspace.count >= workspaceSize(for: count) && workspace.count <= Int(Int32.max))
        guard count > 0, let base = workspace.baseAddress else { return .filled }
        let clearCode = 1 << minimumCodeSize, endCode = clearCode + 1
        // Entry `code` is base[start[code] ..< start[code] + length[code]]; literals point at their table byte.
        let start = UnsafeMutablePointer<Int32>.allocate(capacity: maximumCodeCount)
        let length = UnsafeMutablePointer<Int32>.allocate(capacity: maximumCodeCount)
        defer { start.deallocate(); length.deallocate() }
        for code in 0..<clearCode {
            base[code] = UInt8(truncatingIfNeeded: code)
            start[code] = Int32(truncatingIfNeeded: code)
            length[code] = 1
        }
        (base + 256).initialize(repeating: 0, count: chunk)

        var reader = BitReader(input)
        let end = outputOffset + count
        var written = outputOffset
        var codeSize = minimumCodeSize + 1, nextCode = clearCode + 2
        // Where the previous code's string was written and how long it was.
        var previousStart = 0, previousLength = 0
        var afterClear = true
        while written < end {
            guard let code = reader.read(codeSize) else { return .ranOut(written - outputOffset) }
            if afterClear || UInt(bitPattern: code &- clearCode) < 2 {
                // Rare: a clear, the end, or the first code after a clear (a literal, no new entry).
                if code == clearCode {
                    codeSize = minimumCodeSize + 1
                    nextCode = clearCode + 2
                    afterClear = true
                    continue
                }
                if code == endCode { return .endedEarly(written - outputOffset) }
                guard code < clearCode else { return .invalidCode(written - outputOffset) }
                afterClear = false
                // With a minimum code size of 1 the first free code (4) already needs 3 bits.
                if nextCode == 1 << codeSize { codeSize &+= 1 }
                base[written] = UInt8(truncatingIfNeeded: code)
                previousStart = written
                previousLength = 1
                written &+= 1
                continue
            }
            guard code <= nextCode else { return .invalidCode(written - outputOffset) }
            if nextCode < maximumCodeCount {
                // The previous string plus its successor's first byte; when `code == nextCode` that byte
                // is this string's own first, which the forward copy below produces as it goes.
                start[nextCode] = Int32(truncatingIfNeeded: previousStart)
                length[nextCode] = Int32(truncatingIfNeeded: previousLength &+ 1)
                nextCode &+= 1
                if nextCode == 1 << codeSize && codeSize < 12 { codeSize &+= 1 }
            }
            let from = Int(start[code]), stringLength = Int(length[code])
            let source = base + from, target = base + written
            if stringLength <= chunk && written &- from >= chunk {
                // Short and not overlapping its own output: one 16-byte copy (the slack absorbs the rest).
                UnsafeMutableRawPointer(target).storeBytes(of: UnsafeRawPointer(source).loadUnaligned(as: SIMD16<UInt8>.self),
                                                           as: SIMD16<UInt8>.self)
            } else {
                let copied = min(stringLength, end &- written)
                if written &- from >= copied {
                    target.update(from: source, count: copied)
                } else {
                    for i in 0..<copied { target[i] = source[i] }
                }
            }
            previousStart = written
            previousLength = stringLength
            written &+= stringLength
        }
        return .filled
    }

    /// Codes of up to 12 bits, least significant bit first, from a byte buffer.
    private struct BitReader {
        let bytes: UnsafeRawBufferPointer
        var bits: UInt64 = 0
        var bitCount = 0
        var offset = 0

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        /// The next `size`-bit code, or `nil` when the bytes run out first.
        @inline(__always)
        mutating func read(_ size: Int) -> Int? {
            if bitCount < size {
                if offset &+ 8 <= bytes.count, let base = bytes.baseAddress {
                    // Top up to at least 56 bits with one unaligned load.
                    bits |= UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) << UInt64(bitCount)
                    offset &+= (63 &- bitCount) >> 3
                    bitCount |= 56
                } else {
                    while bitCount < size {
                        guard offset < bytes.count else { return nil }
                        bits |= UInt64(bytes[offset]) << UInt64(bitCount)
                        offset &+= 1
                        bitCount &+= 8
                    }
                }
            }
            let code = Int(truncatingIfNeeded: bits) & ((1 << size) &- 1)
            bits >>= UInt64(size)
            bitCount &-= size
            return code
        }
    }
}
