import Testing
import WebImageKit
@testable import WebImageServer

/// Rectangles measured after a rotation map back to the same pixels before it.
@Suite struct QuarterTurnTests {
    static let source = PixelBuffer.samplePattern(width: 30, height: 20)

    @Test(arguments: [0, 90, 180, 270])
    func aRectangleOfTheRotatedImageIsTheRotationOfItsUnturnedRectangle(_ degrees: Int) throws {
        let turn = QuarterTurn(degrees: degrees)
        let rotated = turn.apply(to: Self.source)
        #expect(rotated.size == turn.turned(Self.source.size))
        for rect in [ResizePlan.Rect(x: 0, y: 0, width: 5, height: 7), ResizePlan.Rect(x: 3, y: 2, width: 9, height: 4),
                     ResizePlan.Rect(x: rotated.width - 6, y: rotated.height - 3, width: 6, height: 3)] {
            let direct = try rotated.cropped(to: rect)
            let throughSource = turn.apply(to: try Self.source.cropped(to: turn.unturned(rect, rotated: rotated.size)))
            #expect(direct == throughSource, "\(degrees)° \(rect)")
        }
    }

    @Test func anglesAreNormalisedToQuarterTurnsClockwise() {
        #expect(QuarterTurn(degrees: -90) == QuarterTurn(degrees: 270))
        #expect(QuarterTurn(degrees: 450) == QuarterTurn(degrees: 90))
        #expect(QuarterTurn(degrees: 90).apply(to: Self.source) == Self.source.applyingOrientation(.right))
    }
}
