import Foundation
import Testing
@testable import WebImageCoders

/// Incremental GIF decoding: the frames completely received so far.
@Suite struct GIFProgressiveDecodingTests {
    let coder = GIFCoder()

    static let fixtures = ["anim-im", "anim-pil", "clipped", "loop-3", "no-loop", "still-alpha"]

    /// A freshly encoded 8-frame 96×64 animation with many colours (quantised) and a moving square.
    static let freshAnimation: Data = {
        let width = 96, height = 64
        let frames = (0..<8).map { index in
            var bytes = [UInt8]()
            for y in 0..<height {
                for x in 0..<width {
                    let inSquare = (x - index * 8) >= 0 && (x - index * 8) < 16 && y >= 20 && y < 36
                    bytes += inSquare ? [255, 255, 255, 255] : [UInt8(x * 2 + index * 5), UInt8(y * 3), UInt8((x + y) & 0xFF), 255]
                }
            }
            return ImageFrame(pixels: PixelBuffer(width: width, height: height, hasAlpha: false, bytes: bytes), duration: .milliseconds(60))
        }
        return (try? GIFCoder().encode(Image(frames: frames, loopCount: 0), as: .gif)) ?? Data()
    }()

    static func data(_ name: String) throws -> Data {
        name == "fresh-animation" ? freshAnimation : try Fixtures.data("gif/\(name).gif")
    }

    static let allInputs = fixtures + ["fresh-animation"]

    @Test(arguments: allInputs, [1, 7, 100, 1000, 4096])
    func chunkedFramesNeverDecreaseMatchTheFinalFramesAndEndEqualToOneShot(name: String, chunkSize: Int) throws {
        let data = try Self.data(name)
        #expect(data.count > 90)
        if chunkSize == 1 && data.count > 4000 { return } // byte by byte only for the small files
        let oneShot = try coder.decode(data)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        var end = 0
        var previousCount = 0
        var last: Image?
        while end < data.count {
            end = min(end + chunkSize, data.count)
            guard let image = try decoder.decode(data.prefix(end)) else {
                #expect(previousCount == 0, "once a frame is shown, the result is never nil again")
                continue
            }
            #expect(decoder.isComplete == (end == data.count))
            if let last, image === last { continue } // unchanged: already checked
            #expect(image.frames.count >= previousCount, "frame counts never decrease")
            #expect(image.frames.count <= oneShot.frames.count)
            previousCount = image.frames.count
            #expect(image.pixelSize == oneShot.pixelSize)
            for (index, frame) in image.frames.enumerated() {
                let same = frame.pixels == oneShot.frames[index].pixels
                #expect(same, "frame \(index) after \(end) bytes")
                if image.frames.count > 1 { #expect(frame.duration == oneShot.frames[index].duration) }
            }
            last = image
        }
        let final = try #require(last)
        #expect(decoder.isComplete)
        #expect(final.frames.map(\.pixels) == oneShot.frames.map(\.pixels))
        #expect(final.frames.map(\.duration) == oneShot.frames.map(\.duration))
        #expect(final.loopCount == oneShot.loopCount && final.format == .gif)
        let (_, helperFinal, complete) = try decodeInChunks(data, coder: coder, chunkSize: chunkSize)
        #expect(complete && helperFinal?.frames.map(\.pixels) == oneShot.frames.map(\.pixels))
    }

    @Test(arguments: allInputs)
    func nilUntilTheFirstFrameIsCompleteThenOneFrame(name: String) throws {
        let data = try Self.data(name)
        let firstFrameEnd = try #require(endOfFirstImage(in: data))
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        for count in 0..<firstFrameEnd {
            #expect(try decoder.decode(data.prefix(count)) == nil, "\(count) of \(firstFrameEnd) bytes")
        }
        let first = try #require(try decoder.decode(data.prefix(firstFrameEnd)))
        #expect(first.frames.count == 1)
        #expect(first.pixels == (try coder.decode(data)).frames[0].pixels)
    }

    @Test(arguments: allInputs)
    func everyPrefixGivesTheSameImageToAFreshDecoderAndOneFedEveryEarlierPrefix(name: String) throws {
        let data = try Self.data(name)
        let shared = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        for prefix in truncations(of: data, samples: 64) {
            let fresh = try coder.makeProgressiveDecoder(options: ImageDecodingOptions()).decode(prefix)
            let fed = try shared.decode(prefix)
            let same = fresh?.frames.map(\.pixels) == fed?.frames.map(\.pixels)
            #expect(same, "\(prefix.count) bytes")
            #expect(!shared.isComplete)
        }
    }

    @Test func garbageAfterTheSignatureThrows() throws {
        // A valid screen descriptor without a colour table, then a byte that is no record type.
        let bad = Data("GIF89a".utf8) + Data([10, 0, 10, 0, 0, 0, 0, 0x99, 1, 2, 3])
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        let error = #expect(throws: ImageCodingError.self) { try decoder.decode(bad) }
        #expect(error?.code == .corruptData && error?.format == .gif)
        #expect(throws: ImageCodingError.self) { try decoder.decode(bad + Data([0x3B])) }
        // Pseudo-random garbage of any kind throws as well once giflib has read enough of it.
        let random = Data("GIF89a".utf8) + randomBytes(count: 4000, seed: 7)
        #expect(throws: ImageCodingError.self) { try coder.makeProgressiveDecoder(options: ImageDecodingOptions()).decode(random) }
    }

    @Test func firstFrameOnlyIsCompleteOnceTheFirstFrameArrived() throws {
        let data = Self.freshAnimation
        let options = ImageDecodingOptions(firstFrameOnly: true)
        let firstFrameEnd = try #require(endOfFirstImage(in: data))
        let decoder = coder.makeProgressiveDecoder(options: options)
        let image = try #require(try decoder.decode(data.prefix(firstFrameEnd)))
        #expect(decoder.isComplete)
        #expect(image.frames.map(\.pixels) == (try coder.decode(data, options: options)).frames.map(\.pixels))
    }

    @Test func thumbnailOptionsApplyToPartialImages() throws {
        let data = Self.freshAnimation
        let options = ImageDecodingOptions(thumbnailPixelSize: PixelSize(width: 24, height: 24))
        let oneShot = try coder.decode(data, options: options)
        let (partials, final, complete) = try decodeInChunks(data, coder: coder, chunkSize: 500, options: options)
        #expect(complete && partials.count > 3)
        #expect(partials.allSatisfy { $0.pixelSize == oneShot.pixelSize })
        #expect(final?.frames.map(\.pixels) == oneShot.frames.map(\.pixels))
    }

    @Test func aCallWithoutANewFrameReturnsThePreviousImage() throws {
        let data = Self.freshAnimation
        let firstFrameEnd = try #require(endOfFirstImage(in: data))
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        let first = try #require(try decoder.decode(data.prefix(firstFrameEnd)))
        let again = try #require(try decoder.decode(data.prefix(firstFrameEnd + 3)))
        #expect(first === again)
    }

    @Test func aShorterPrefixThanLastTimeStartsOver() throws {
        let data = Self.freshAnimation
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        _ = try decoder.decode(data)
        #expect(decoder.isComplete)
        let restarted = try decoder.decode(data.prefix(data.count / 2))
        #expect(!decoder.isComplete)
        let fresh = try coder.makeProgressiveDecoder(options: ImageDecodingOptions()).decode(data.prefix(data.count / 2))
        #expect(restarted?.frames.map(\.pixels) == fresh?.frames.map(\.pixels))
    }
}

/// The offset just past the first image's data (its block terminator), found by walking the GIF
/// blocks independently of giflib.
private func endOfFirstImage(in data: Data) -> Int? {
    let bytes = [UInt8](data)
    guard bytes.count >= 13 else { return nil }
    var offset = 13
    if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 7) + 1) }
    func skipSubBlocks() -> Bool {
        while offset < bytes.count {
            let length = Int(bytes[offset])
            offset += 1 + length
            if length == 0 { return true }
        }
        return false
    }
    while offset < bytes.count {
        switch bytes[offset] {
        case 0x21:
            offset += 2
            guard skipSubBlocks() else { return nil }
        case 0x2C:
            guard offset + 10 <= bytes.count else { return nil }
            let packed = bytes[offset + 9]
            offset += 10
            if packed & 0x80 != 0 { offset += 3 << (Int(packed & 7) + 1) }
            offset += 1 // LZW minimum code size
            return skipSubBlocks() ? offset : nil
        default:
            return nil
        }
    }
    return nil
}
