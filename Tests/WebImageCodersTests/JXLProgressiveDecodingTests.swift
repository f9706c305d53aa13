import Foundation
import Testing
@testable import WebImageCoders

/// JXLCoder's progressive decoder fed a growing prefix, as a download does.
@Suite struct JXLProgressiveDecodingTests {
    let coder = JXLCoder()

    @Test func progressiveFileShowsAFullSizePartialImageBeforeTheEndAndFinishesLikeAOneShotDecode() throws {
        let data = try Fixtures.data("jxl/progressive.jxl")
        let oneShot = try coder.decode(data)
        let (partials, final, complete) = try decodeInChunks(data, coder: coder, chunkSize: 700)
        #expect(complete)
        #expect(final?.pixels == oneShot.pixels)
        let early = partials.dropLast()
        #expect(!early.isEmpty, "no partial image before the last chunk")
        #expect(early.allSatisfy { $0.pixelSize == PixelSize(width: 512, height: 512) })
        // A partial image is a coarse version of the final one: close, but not yet equal.
        if let first = early.first {
            #expect(first.pixels != oneShot.pixels)
            #expect(psnr(first.pixels, oneShot.pixels) > 15)
        }
    }

    @Test func animationShowsTheFramesReceivedSoFar() throws {
        let data = try Fixtures.data("jxl/animation.jxl")
        let (partials, final, complete) = try decodeInChunks(data, coder: coder, chunkSize: 256)
        #expect(complete)
        #expect(final?.frames.count == 3)
        let counts = partials.map(\.frames.count)
        #expect(counts == counts.sorted())
        #expect(counts.contains { $0 < 3 })
    }

    @Test func cutDataNeverThrowsAndNeverCompletes() throws {
        let data = try Fixtures.data("jxl/opaque.jxl")
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        for end in stride(from: 0, to: data.count, by: 97) {
            _ = try decoder.decode(data.prefix(end))
            #expect(!decoder.isComplete)
        }
        #expect(try decoder.decode(data) != nil)
        #expect(decoder.isComplete)
    }

    @Test func hostileHeaderThrowsImageTooLargeWhileDownloading() {
        var bits = BitWriter()
        bits.write(0xFF0A, count: 16, bigEndian: true)
        bits.write(0, count: 1)
        bits.write(2, count: 2); bits.write(99_999, count: 18)
        bits.write(0, count: 3)
        bits.write(2, count: 2); bits.write(99_999, count: 18)
        bits.write(1, count: 1)
        let decoder = coder.makeProgressiveDecoder(options: ImageDecodingOptions())
        #expect(codingError { try decoder.decode(Data(bits.bytes + [UInt8](repeating: 0, count: 16))) }?.code == .imageTooLarge)
    }
}
