import Testing
import WebImageCore

@Suite struct ResamplerTests {
    @Test(arguments: ResamplingFilter.allCases)
    func aSolidColourStaysExactlyThatColour(filter: ResamplingFilter) {
        let colour = RGBA(red: 200, green: 100, blue: 50, alpha: 180)
        let buffer = PixelBuffer(width: 37, height: 23, fill: colour)
        for size in [PixelSize(width: 10, height: 7), PixelSize(width: 80, height: 50), PixelSize(width: 1, height: 1)] {
            let resized = Resampler.resize(buffer, to: size, filter: filter)
            #expect(resized.size == size)
            #expect(maxDifference(resized, from: colour) <= 1, "\(filter) \(size)")
        }
    }

    @Test func boxFilterHalvingAveragesEachTwoByTwoBlock() {
        var buffer = PixelBuffer(width: 4, height: 2, fill: .black)
        buffer[0, 0] = RGBA(red: 100, green: 0, blue: 0)
        buffer[1, 0] = RGBA(red: 200, green: 0, blue: 0)
        buffer[0, 1] = RGBA(red: 0, green: 40, blue: 0)
        buffer[1, 1] = RGBA(red: 0, green: 80, blue: 0)
        let half = Resampler.resize(buffer, to: PixelSize(width: 2, height: 1), filter: .box)
        #expect(half[0, 0] == RGBA(red: 75, green: 30, blue: 0))
        #expect(half[1, 0] == .black)
    }

    @Test(arguments: ResamplingFilter.allCases)
    func transparentPixelsDoNotDarkenVisibleEdges(filter: ResamplingFilter) {
        // White opaque on the left, transparent black on the right: premultiplied filtering keeps edge pixels white.
        var buffer = PixelBuffer(width: 64, height: 8)
        for y in 0..<8 { for x in 0..<32 { buffer[x, y] = .white } }
        let resized = Resampler.resize(buffer, to: PixelSize(width: 20, height: 4), filter: filter)
        for y in 0..<4 {
            for x in 0..<20 where resized[x, y].alpha > 8 {
                #expect(resized[x, y].red >= 250, "\(filter) (\(x), \(y)) = \(resized[x, y])")
            }
        }
        #expect(resized[0, 0].alpha == 255)
        #expect(resized[19, 0].alpha == 0)
    }

    @Test(arguments: [ResamplingFilter.lanczos3, .mitchell, .catmullRom, .bilinear, .box])
    func downscalingACheckerboardGivesMidGrey(filter: ResamplingFilter) {
        var board = PixelBuffer(width: 64, height: 64, fill: .black)
        for y in 0..<64 { for x in 0..<64 where (x + y) % 2 == 0 { board[x, y] = .white } }
        let small = Resampler.resize(board, to: PixelSize(width: 8, height: 8), filter: filter)
        for y in 0..<8 {
            for x in 0..<8 {
                #expect(abs(Int(small[x, y].red) - 128) <= 3, "\(filter) (\(x), \(y)) = \(small[x, y])")
            }
        }
    }

    @Test func theSameSizeReturnsTheBufferUnchanged() {
        let buffer = PixelBuffer.samplePattern(width: 16, height: 9)
        #expect(Resampler.resize(buffer, to: buffer.size) == buffer)
    }

    @Test func opaqueInputStaysOpaqueAndSmoothContentIsPreserved() {
        let buffer = PixelBuffer.samplePattern(width: 300, height: 200)
        let down = Resampler.resize(buffer, to: PixelSize(width: 150, height: 100))
        #expect(!down.hasAlpha && down.isOpaque)
        let box = Resampler.resize(buffer, to: PixelSize(width: 150, height: 100), filter: .box)
        // Lanczos and box agree closely on smooth content.
        var total = 0
        for (a, b) in zip(down.bytes, box.bytes) { total += abs(Int(a) - Int(b)) }
        #expect(Double(total) / Double(down.bytes.count) < 6)
    }

    @Test func degenerateShapesWork() {
        let column = PixelBuffer.samplePattern(width: 1, height: 50)
        #expect(Resampler.resize(column, to: PixelSize(width: 3, height: 10)).size == PixelSize(width: 3, height: 10))
        let row = PixelBuffer.samplePattern(width: 50, height: 1, alpha: true)
        #expect(Resampler.resize(row, to: PixelSize(width: 7, height: 1)).size == PixelSize(width: 7, height: 1))
    }

    @Test func aspectFitKeepsTheRatioInsideTheBounds() {
        #expect(Resampler.aspectFitSize(PixelSize(width: 6000, height: 4000), in: PixelSize(width: 300, height: 300))
                == PixelSize(width: 300, height: 200))
        #expect(Resampler.aspectFitSize(PixelSize(width: 100, height: 1), in: PixelSize(width: 10, height: 10))
                == PixelSize(width: 10, height: 1))
    }

    private func maxDifference(_ buffer: PixelBuffer, from colour: RGBA) -> Int {
        var worst = 0
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let p = buffer[x, y]
                worst = max(worst, abs(Int(p.red) - Int(colour.red)), abs(Int(p.green) - Int(colour.green)),
                            abs(Int(p.blue) - Int(colour.blue)), abs(Int(p.alpha) - Int(colour.alpha)))
            }
        }
        return worst
    }
}
