package import Foundation
import WebImageKit

/// The progress display of `webimage fetch`, as text: one bar per running download (bytes, rate) and one
/// for the whole list (its bytes count the downloads under way too, not only those finished). A value: feed it ``FetchJob/Event``s, ask it for ``lines(now:width:)``; the
/// command line redraws those in place on a terminal.
package struct FetchProgressBoard: Sendable {
    private struct Transfer: Sendable {
        var name: String
        var received = 0
        var expected: Int?
        var started: ContinuousClock.Instant
    }

    private var running: [Int: Transfer] = [:]
    private let total: Int
    private var finished = 0
    private var failed = 0
    private var bytes = 0
    private let started: ContinuousClock.Instant

    /// At most this many download bars are shown (the rest are counted in the overall line).
    package static let maximumBars = 6

    /// A board for `total` URLs, started at `now`.
    package init(total: Int, now: ContinuousClock.Instant = .now) {
        self.total = total
        started = now
    }

    /// Takes one event into account.
    package mutating func apply(_ event: FetchJob.Event, now: ContinuousClock.Instant = .now) {
        switch event {
        case .started(let index, let url):
            running[index] = Transfer(name: Self.label(for: url), started: now)
        case .progress(let index, let received, let expected):
            running[index]?.received = received
            running[index]?.expected = expected
        case .finished(let index, let item):
            running[index] = nil
            finished += 1
            bytes += item.bytes
            if !item.succeeded { failed += 1 }
        }
    }

    /// Whether every URL is done.
    package var isComplete: Bool { finished == total }

    /// The lines to show now: download bars (only those that have received bytes), then the overall line.
    package func lines(now: ContinuousClock.Instant = .now, width: Int = 100) -> [String] {
        let active = running.sorted { $0.key < $1.key }.filter { $0.value.received > 0 }.prefix(Self.maximumBars)
        var lines = active.map { _, transfer -> String in
            let fraction = transfer.expected.map { $0 > 0 ? Double(transfer.received) / Double($0) : 1 }
            let size = transfer.expected.map { "\(ByteCountText.format(transfer.received))/\(ByteCountText.format($0))" }
                ?? ByteCountText.format(transfer.received)
            let rate = Self.rate(transfer.received, since: transfer.started, now: now)
            return Self.fit("\(Self.bar(fraction)) \(Self.percent(fraction)) \(size) \(rate) \(transfer.name)", width)
        }
        let overall = Double(finished) / Double(max(total, 1))
        let loaded = bytes + running.values.reduce(0) { $0 + $1.received }   // finished, and in flight
        var summary = "\(Self.bar(overall)) \(finished)/\(total) done"
        if failed > 0 { summary += ", \(failed) failed" }
        summary += ", \(ByteCountText.format(loaded)), \(Self.rate(loaded, since: started, now: now))"
        lines.append(Self.fit(summary, width))
        return lines
    }

    /// What a download's bar is labelled with: the URL's last path component with its query string
    /// (`thumb.jpg?w=200`, so that two sizes of one image can be told apart), or the whole URL when its
    /// path has no last component.
    package static func label(for url: URL) -> String {
        let last = url.lastPathComponent
        guard !last.isEmpty, last != "/" else { return url.absoluteString }
        return url.query.map { "\(last)?\($0)" } ?? last
    }

    /// A text progress bar, `[=========>          ]`; `[????…]` when the fraction is unknown.
    package static func bar(_ fraction: Double?, width: Int = 20) -> String {
        guard let fraction else { return "[" + String(repeating: "?", count: width) + "]" }
        let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded(.down))
        let head = filled < width && filled > 0 ? ">" : ""
        let body = String(repeating: "=", count: max(0, filled - head.count)) + head
        return "[" + body + String(repeating: " ", count: width - body.count) + "]"
    }

    static func percent(_ fraction: Double?) -> String {
        guard let fraction else { return "  ?%" }
        let text = "\(Int((min(max(fraction, 0), 1) * 100).rounded(.down)))%"
        return String(repeating: " ", count: max(0, 4 - text.count)) + text
    }

    static func rate(_ bytes: Int, since start: ContinuousClock.Instant, now: ContinuousClock.Instant) -> String {
        let seconds = (now - start).seconds
        guard seconds > 0.001 else { return "-/s" }
        return "\(ByteCountText.format(Int(Double(bytes) / seconds)))/s"
    }

    static func fit(_ line: String, _ width: Int) -> String {
        line.count <= width ? line : String(line.prefix(max(1, width - 1))) + "…"
    }
}
