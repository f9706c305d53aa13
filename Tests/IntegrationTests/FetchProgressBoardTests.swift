import Foundation
import Testing
import WebImageKit
import WebImageTools

/// The text of `webimage fetch`'s progress display.
@Suite struct FetchProgressBoardTests {
    @Test func aBarPerDownloadThatHasBytesThenTheOverallLine() {
        let start = ContinuousClock.now
        var board = FetchProgressBoard(total: 2, now: start)
        board.apply(.started(index: 0, url: URL(string: "http://h/a.jpg")!), now: start)
        board.apply(.started(index: 1, url: URL(string: "http://h/b.jpg")!), now: start)
        board.apply(.progress(index: 0, received: 500, expected: 1000), now: start)
        let lines = board.lines(now: start + .seconds(1))
        #expect(lines == [
            "[=========>          ]  50% 500 B/1.0 KB 500 B/s a.jpg",
            "[                    ] 0/2 done, 0 B, 0 B/s",
        ])
        board.apply(.finished(index: 0, item: FetchItem(
            url: "http://h/a.jpg", source: "network", format: "JPEG", width: 1, height: 1, frames: 1, bytes: 1000,
            milliseconds: 1, output: nil, error: nil)), now: start)
        #expect(board.lines(now: start + .seconds(1)) == ["[=========>          ] 1/2 done, 1.0 KB, 1.0 KB/s"])
        #expect(!board.isComplete)
    }

    @Test func anUnknownSizeShowsQuestionMarks() {
        #expect(FetchProgressBoard.bar(nil, width: 4) == "[????]")
        #expect(FetchProgressBoard.bar(1, width: 4) == "[====]")
        #expect(FetchProgressBoard.bar(0.5, width: 4) == "[=>  ]")
    }
}
