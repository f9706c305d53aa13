/// A small zlib/DEFLATE decoder (RFC 1950/1951, after Mark Adler's puff.c), for the one compressed thing
/// `webimage info` reads: a PNG's iCCP profile. Every read is bounds-checked; output is capped.
package struct Inflate {
    private let input: [UInt8]
    private var position = 0
    private var bitBuffer = 0
    private var bitCount = 0
    private var output: [UInt8] = []
    private let limit: Int

    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init?(lengths: ArraySlice<Int>) {
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1..<16 {
                left = left * 2 - counts[length]
                if left < 0 { return nil }   // over-subscribed
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                       4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Inflates zlib data (a 2-byte header, then DEFLATE); `nil` when it is damaged or inflates past `limit`.
    package static func zlib(_ data: [UInt8], limit: Int = 4 << 20) -> [UInt8]? {
        guard data.count > 2, data[0] & 0x0F == 8, (Int(data[0]) << 8 | Int(data[1])) % 31 == 0 else { return nil }
        var inflater = Inflate(input: Array(data.dropFirst(2)), limit: limit)
        return inflater.run() ? inflater.output : nil
    }

    private init(input: [UInt8], limit: Int) {
        self.input = input
        self.limit = limit
    }

    private mutating func bits(_ need: Int) -> Int? {
        while bitCount < need {
            guard position < input.count else { return nil }
            bitBuffer |= Int(input[position]) << bitCount
            position += 1
            bitCount += 8
        }
        let value = bitBuffer & ((1 << need) - 1)
        bitBuffer >>= need
        bitCount -= need
        return value
    }

    private mutating func run() -> Bool {
        var last = 0
        repeat {
            guard let final = bits(1), let type = bits(2) else { return false }
            last = final
            let ok: Bool
            switch type {
            case 0: ok = stored()
            case 1: ok = fixed()
            case 2: ok = dynamic()
            default: ok = false
            }
            guard ok else { return false }
        } while last == 0
        return true
    }

    private mutating func stored() -> Bool {
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.count else { return false }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        position += 4
        guard position + length <= input.count, output.count + length <= limit else { return false }
        output += input[position..<(position + length)]
        position += length
        return true
    }

    private mutating func decode(_ huffman: Huffman) -> Int? {
        var code = 0, first = 0, index = 0
        for length in 1..<16 {
            guard let bit = bits(1) else { return nil }
            code |= bit
            let count = huffman.counts[length]
            if code - count < first { return huffman.symbols[index + (code - first)] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        return nil
    }

    private mutating func codes(_ lengths: Huffman, _ distances: Huffman) -> Bool {
        while true {
            guard var symbol = decode(lengths) else { return false }
            if symbol < 256 {
                guard output.count < limit else { return false }
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return true
            } else {
                symbol -= 257
                guard symbol < 29, let extra = bits(Self.lengthExtra[symbol]) else { return false }
                let length = Self.lengthBase[symbol] + extra
                guard let distanceSymbol = decode(distances), distanceSymbol < 30,
                      let distanceExtra = bits(Self.distanceExtra[distanceSymbol]) else { return false }
                let distance = Self.distanceBase[distanceSymbol] + distanceExtra
                guard distance <= output.count, output.count + length <= limit else { return false }
                for _ in 0..<length { output.append(output[output.count - distance]) }
            }
        }
    }

    private mutating func fixed() -> Bool {
        var lengths = [Int](repeating: 8, count: 288)
        for symbol in 144..<256 { lengths[symbol] = 9 }
        for symbol in 256..<280 { lengths[symbol] = 7 }
        guard let literal = Huffman(lengths: lengths[...]),
              let distance = Huffman(lengths: [Int](repeating: 5, count: 30)[...]) else { return false }
        return codes(literal, distance)
    }

    private mutating func dynamic() -> Bool {
        guard let literalCount = bits(5).map({ $0 + 257 }), let distanceCount = bits(5).map({ $0 + 1 }),
              let codeCount = bits(4).map({ $0 + 4 }), literalCount <= 286, distanceCount <= 30 else { return false }
        var lengths = [Int](repeating: 0, count: 320)
        for index in 0..<codeCount {
            guard let length = bits(3) else { return false }
            lengths[Self.codeLengthOrder[index]] = length
        }
        guard let lengthCode = Huffman(lengths: lengths[0..<19]) else { return false }
        var index = 0
        while index < literalCount + distanceCount {
            guard let symbol = decode(lengthCode) else { return false }
            if symbol < 16 {
                lengths[index] = symbol
                index += 1
                continue
            }
            var repeated = 0, times = 0
            switch symbol {
            case 16:
                guard index > 0, let extra = bits(2) else { return false }
                repeated = lengths[index - 1]
                times = 3 + extra
            case 17: guard let extra = bits(3) else { return false }; times = 3 + extra
            default: guard let extra = bits(7) else { return false }; times = 11 + extra
            }
            guard index + times <= literalCount + distanceCount else { return false }
            for _ in 0..<times { lengths[index] = repeated; index += 1 }
        }
        guard let literal = Huffman(lengths: lengths[0..<literalCount]),
              let distance = Huffman(lengths: lengths[literalCount..<(literalCount + distanceCount)]) else { return false }
        return codes(literal, distance)
    }
}
