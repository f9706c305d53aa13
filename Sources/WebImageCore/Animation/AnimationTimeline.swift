/// Where an animation stands at an elapsed time: the arithmetic of ``AnimatedImagePlayer``, kept
/// apart from its state. Times are whole nanoseconds.
struct AnimationTimeline: Sendable {
    /// When each frame starts within one loop; `frameStarts[0] == 0`.
    let frameStarts: [Int64]
    /// The length of one loop, at least 1 ns.
    let loopLength: Int64
    /// 0 plays forever.
    let loopCount: Int

    /// Builds the timeline from the durations as played (see ``AnimatedImagePlayer/playedDuration(_:)``).
    init(playedDurations: [Duration], loopCount: Int) {
        var starts: [Int64] = []
        starts.reserveCapacity(playedDurations.count)
        var time: Int64 = 0
        for duration in playedDurations {
            starts.append(time)
            let (sum, overflow) = time.addingReportingOverflow(Self.nanoseconds(duration))
            time = overflow ? Int64.max / 2 : min(sum, Int64.max / 2)
        }
        frameStarts = starts
        loopLength = max(time, 1)
        self.loopCount = max(loopCount, 0)
    }

    var frameCount: Int { frameStarts.count }

    /// The frame, loop and finished flag at `elapsed` nanoseconds from the start (negative counts as 0).
    func position(at elapsed: Int64) -> AnimatedImagePlayer.Position {
        guard frameCount > 1 else { return AnimatedImagePlayer.Position(index: 0, loop: 0, isFinished: true) }
        let elapsed = max(elapsed, 0)
        let loop = elapsed / loopLength
        if loopCount > 0, loop >= Int64(loopCount) {
            return AnimatedImagePlayer.Position(index: frameCount - 1, loop: loopCount, isFinished: true)
        }
        return AnimatedImagePlayer.Position(index: frameIndex(within: elapsed % loopLength), loop: Int(loop), isFinished: false)
    }

    /// When, in nanoseconds from the start, the frame shown at `elapsed` gives way to the next one;
    /// `nil` once the animation has finished (or for a single frame).
    func nextChange(after elapsed: Int64) -> Int64? {
        let position = position(at: elapsed)
        guard !position.isFinished else { return nil }
        let loopStart = Int64(position.loop) * loopLength
        let end = position.index + 1 < frameCount ? frameStarts[position.index + 1] : loopLength
        let (sum, overflow) = loopStart.addingReportingOverflow(end)
        return overflow ? nil : sum
    }

    /// The last frame starting at or before `time` (`0 ≤ time < loopLength`), by binary search.
    private func frameIndex(within time: Int64) -> Int {
        var low = 0, high = frameCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if frameStarts[middle] <= time { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// A duration in whole nanoseconds, negative as 0, saturating far beyond any animation's length.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        guard duration > .zero else { return 0 }
        guard duration < .seconds(1_000_000_000) else { return Int64.max / 4 }
        return duration.nanoseconds
    }
}
