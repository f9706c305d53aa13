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

/// One progress line on standard error for a batch, `[#####·····] 5/10`, redrawn in place; lines printed
/// while it is shown go above it. Draws nothing when `enabled` is false (standard error is not a terminal).
final class BatchProgressLine: Sendable {
    private let total: Int
    private let enabled: Bool
    private let done = LockedValue(0)

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
        if enabled { draw(0) }
    }

    /// Counts one more file done, running `printLines` (which prints its lines) above the bar.
    func finished(_ printLines: () -> Void) {
        done.withLock { count in
            count += 1
            if enabled { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
            printLines()
            fflush(nil)   // every stream: the lines printed go out before the bar is redrawn
            if enabled { draw(count) }
        }
    }

    /// Removes the bar.
    func clear() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }

    private func draw(_ count: Int) {
        let line = "\(FetchProgressBoard.bar(Double(count) / Double(max(total, 1)))) \(count)/\(total) converted"
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(line)".utf8))
    }
}
