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
            "[                    ] 0/2 done, 500 B, 500 B/s",
        ])
        board.apply(.finished(index: 0, item: FetchItem(
            url: "http://h/a.jpg", source: "network", format: "JPEG", width: 1, height: 1, frames: 1, bytes: 1000,
            milliseconds: 1, output: nil, error: nil)), now: start)
        #expect(board.lines(now: start + .seconds(1)) == ["[=========>          ] 1/2 done, 1.0 KB, 1.0 KB/s"])
        #expect(!board.isComplete)
    }

    @Test func theOverallLineCountsBytesInFlightOnceEach() {
        let start = ContinuousClock.now
        var board = FetchProgressBoard(total: 3, now: start)
        for (index, name) in ["a", "b", "c"].enumerated() {
            board.apply(.started(index: index, url: URL(fileURLWithPath: "/\(name).png")), now: start)
        }
        board.apply(.progress(index: 0, received: 300, expected: nil), now: start)
        board.apply(.progress(index: 1, received: 200, expected: 400), now: start)
        board.apply(.progress(index: 1, received: 400, expected: 400), now: start)   // replaces, never adds
        board.apply(.finished(index: 2, item: FetchItem(
            url: "file:///c.png", source: "file", format: "PNG", width: 1, height: 1, frames: 1, bytes: 1000,
            milliseconds: 1, output: nil, error: nil)), now: start)
        #expect(board.lines(now: start + .seconds(2)).last == "[=====>              ] 1/3 done, 1.7 KB, 850 B/s")
    }

    @Test func labelsKeepTheQueryString() throws {
        let sized = try #require(URL(string: "https://cdn.example.com/img/photo.jpg?w=200&h=100"))
        let bare = try #require(URL(string: "https://cdn.example.com/"))
        #expect(FetchProgressBoard.label(for: sized) == "photo.jpg?w=200&h=100")
        #expect(FetchProgressBoard.label(for: bare) == "https://cdn.example.com/")
        var board = FetchProgressBoard(total: 1)
        board.apply(.started(index: 0, url: sized))
        board.apply(.progress(index: 0, received: 10, expected: 20))
        #expect(board.lines().first?.hasSuffix("photo.jpg?w=200&h=100") == true)
    }

    @Test func anUnknownSizeShowsQuestionMarks() {
        #expect(FetchProgressBoard.bar(nil, width: 4) == "[????]")
        #expect(FetchProgressBoard.bar(1, width: 4) == "[====]")
        #expect(FetchProgressBoard.bar(0.5, width: 4) == "[=>  ]")
    }
}
