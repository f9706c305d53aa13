#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WebImageKit
import WebImageTools

/// Shows a ``FetchProgressBoard`` on standard error: redrawn in place (at most ten times a second) on a
/// terminal; nothing when standard error is not a terminal, so pipes and logs never see escape codes.
final class TerminalProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var board: FetchProgressBoard
    private var drawnLines = 0
    private var lastDraw = ContinuousClock.now - .seconds(1)
    let isEnabled: Bool

    init(total: Int, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        board = FetchProgressBoard(total: total)
        isEnabled = enabled
    }

    /// Takes an event; redraws when a tenth of a second has passed, or when the list is done.
    func handle(_ event: FetchJob.Event) {
        guard isEnabled else { return }
        lock.lock()
        defer { lock.unlock() }
        board.apply(event)
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(100) || board.isComplete else { return }
        lastDraw = now
        draw(board.lines(now: now, width: Self.terminalWidth()))
    }

    /// Removes the bars, leaving the terminal as it was.
    func clear() {
        guard isEnabled else { return }
        lock.lock()
        defer { lock.unlock() }
        draw([])
    }

    private func draw(_ lines: [String]) {
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""   // back to the first line drawn
        for line in lines { text += "\r\u{1B}[2K" + line + "\n" }
        let stale = max(0, drawnLines - lines.count)
        for _ in 0..<stale { text += "\r\u{1B}[2K\n" }
        if stale > 0 { text += "\u{1B}[\(stale)A" }
        drawnLines = lines.count
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 10 else { return 100 }
        return Int(size.ws_col)
    }
}
