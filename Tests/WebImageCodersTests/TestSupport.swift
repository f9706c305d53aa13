import Foundation
import Testing
@testable import WebImageCoders

/// Loads committed fixture files from `Tests/WebImageCodersTests/Fixtures`.
enum Fixtures {
    static func url(_ name: String) throws -> URL {
        let url = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)).appendingPathComponent(name)
        return url
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: url(name))
    }

    /// Raw RGBA bytes written beside a fixture by the fixture script (`name.rgba`).
    static func expectedPixels(_ name: String, width: Int, height: Int) throws -> PixelBuffer {
        let bytes = try [UInt8](data(name))
        return PixelBuffer(width: width, height: height, hasAlpha: true, bytes: bytes)
    }
}

/// Peak signal-to-noise ratio in dB between two equally sized buffers, over all four channels.
func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    precondition(a.size == b.size)
    var squared = 0.0
    for (x, y) in zip(a.bytes, b.bytes) {
        let d = Double(x) - Double(y)
        squared += d * d
    }
    if squared == 0 { return .infinity }
    let mse = squared / Double(a.bytes.count)
    return 10 * log10(255 * 255 / mse)
}

/// The largest difference between two equally sized buffers in any channel.
func maxChannelDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    precondition(a.size == b.size)
    return zip(a.bytes, b.bytes).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
}

/// The largest difference between two equally sized buffers in what is seen: colour channels weighted by
/// their alpha (premultiplied, rounded), and alpha itself. The colour of a (nearly) transparent pixel,
/// which un-premultiplying amplifies, does not count.
func maxVisibleDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    precondition(a.size == b.size)
    var largest = 0
    for pixel in stride(from: 0, to: a.bytes.count, by: 4) {
        let alphaA = Int(a.bytes[pixel + 3]), alphaB = Int(b.bytes[pixel + 3])
        largest = max(largest, abs(alphaA - alphaB))
        for channel in 0..<3 {
            let seenA = (Int(a.bytes[pixel + channel]) * alphaA + 127) / 255
            let seenB = (Int(b.bytes[pixel + channel]) * alphaB + 127) / 255
            largest = max(largest, abs(seenA - seenB))
        }
    }
    return largest
}

/// Prefixes of `data` cut at many points: every byte of the first 64, then evenly spread, never the whole.
func truncations(of data: Data, samples: Int = 96) -> [Data] {
    guard data.count > 1 else { return [Data()] }
    var cuts = Set(0..<min(64, data.count))
    let step = max(1, data.count / samples)
    cuts.formUnion(stride(from: 0, to: data.count, by: step))
    cuts.formUnion((1...min(8, data.count - 1)).map { data.count - $0 })
    return cuts.sorted().map { data.prefix($0) }
}

/// Deterministic pseudo-random bytes.
func randomBytes(count: Int, seed: UInt64) -> Data {
    var state = seed | 1
    return Data((0..<count).map { _ in
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state)
    })
}

/// Feeds `data` to a fresh progressive decoder in chunks of `chunkSize` bytes and returns every
/// image it produced, the last one after the whole data; checks that the final image equals a one-shot decode.
func decodeInChunks(
    _ data: Data, coder: some ProgressiveImageDecoding, chunkSize: Int,
    options: ImageDecodingOptions = ImageDecodingOptions()
) throws -> (partials: [Image], final: Image?, complete: Bool) {
    let decoder = coder.makeProgressiveDecoder(options: options)
    var partials: [Image] = []
    var end = 0
    while end < data.count {
        end = min(end + chunkSize, data.count)
        if let image = try decoder.decode(data.prefix(end)) { partials.append(image) }
    }
    return (partials, partials.last, decoder.isComplete)
}

/// Where two buffers first differ ("(x, y): actual ≠ expected"), or `nil` when they are equal.
func firstDifference(_ actual: PixelBuffer, _ expected: PixelBuffer) -> String? {
    guard actual.size == expected.size else { return "size \(actual.size) ≠ \(expected.size)" }
    for y in 0..<actual.height {
        for x in 0..<actual.width where actual[x, y] != expected[x, y] {
            return "(\(x), \(y)): \(actual[x, y]) ≠ expected \(expected[x, y])"
        }
    }
    return nil
}

/// The `ImageCodingError` that `body` throws; `nil` when it throws nothing, and an issue when it throws another error.
func codingError<T>(_ body: () throws -> T) -> ImageCodingError? {
    do {
        _ = try body()
        return nil
    } catch let error as ImageCodingError {
        return error
    } catch {
        Issue.record("not an ImageCodingError: \(error)")
        return nil
    }
}

/// The mean absolute difference per channel between two equally sized buffers.
func meanChannelDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    precondition(a.size == b.size)
    let total = zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    return Double(total) / Double(max(1, a.bytes.count))
}
