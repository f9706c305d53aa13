/// Plays an animation without any UI: the frame for an elapsed time, loop counting, and a bounded
/// buffer of decoded frames (SDWebImage's `SDAnimatedImagePlayer`, FLAnimatedImage's frame cache).
///
/// The player maps a time since the animation started to a ``Position`` (frame, loop, finished):
/// - each frame plays for its source duration, except that a duration under 11 ms (0 included)
///   plays as 100 ms: SDWebImage's rule ("any delay < 0.011 s becomes 0.1 s", which it
///   calls the Firefox/WebKit rule). The built-in decoders already turn stored delays of 10 ms or less
///   into 100 ms, so this matters for sources that report raw durations; see ``playedDuration(_:)``;
/// - a loop count of 0 plays forever; a loop count of n stops on the last frame after n plays;
/// - a single-frame source is finished from the start.
///
/// ``frame(at:)`` returns the pixels of the frame at a time, from the buffer or decoded on the spot,
/// and moves the buffer's window there. The buffer keeps at most ``bufferCapacity`` frames, all within
/// the window of that many frames starting at the current one; ``prefetch()`` decodes the frames ahead
/// of the current one into it. Nothing is decoded ahead unless ``prefetch()`` is called, so a caller
/// chooses where that work runs (for example in a `Task` after each frame is shown).
///
/// Threading contract: a player is `Sendable`; its state is behind a lock that is never held while a
/// frame decodes, so ``frame(at:)`` and ``prefetch()`` may run on different threads at once.
///
/// ```swift
/// guard let source = try ImageCodersManager.shared.animatedFrameSource(for: gifData) else { return }
/// let player = AnimatedImagePlayer(source: source)
/// let clock = ContinuousClock(), start = clock.now
/// while true {
///     let elapsed = clock.now - start
///     show(try player.frame(at: elapsed))
///     try player.prefetch()                                                    // decode ahead while it shows
///     guard let next = player.nextFrameChange(after: elapsed) else { break }   // finished
///     try await clock.sleep(until: start + next)
/// }
/// ```
public final class AnimatedImagePlayer: Sendable {
    /// The mutable part: where playback stands, the buffer, the counters.
    private struct State {
        var position: Position
        var buffer: AnimationFrameBuffer
        var decodedFrameCount = 0
    }

    /// The frames played.
    public let source: any AnimatedImageFrameSource
    /// The configuration the player was created with.
    public let configuration: Configuration
    /// The most decoded frames the buffer holds at once, from ``Configuration/maximumBufferedFrames``
    /// or ``Configuration/bufferByteBudget``.
    public let bufferCapacity: Int
    /// How many frames after the current one ``prefetch()`` decodes.
    public let prefetchCount: Int
    private let timeline: AnimationTimeline
    private let state: LockedValue<State>

    /// Creates a player for `source`; nothing is decoded yet.
    public init(source: any AnimatedImageFrameSource, configuration: Configuration = Configuration()) {
        self.source = source
        self.configuration = configuration
        let frameCount = max(source.frameCount, 1)
        let durations = (0..<frameCount).map { Self.playedDuration(source.duration(ofFrame: $0)) }
        timeline = AnimationTimeline(playedDurations: durations, loopCount: source.loopCount)
        bufferCapacity = configuration.bufferCapacity(frameCount: frameCount, frameByteCount: source.frameByteCount)
        prefetchCount = min(max(configuration.prefetchAhead ?? bufferCapacity - 1, 0), bufferCapacity - 1)
        state = LockedValue(State(
            position: timeline.position(at: 0),
            buffer: AnimationFrameBuffer(capacity: bufferCapacity, frameCount: frameCount)
        ))
    }

    /// Creates a player for the frames of a decoded image.
    public convenience init(image: Image, configuration: Configuration = Configuration()) {
        self.init(source: DecodedFrameSource(image), configuration: configuration)
    }

    /// How long a frame whose source gives `duration` is shown: 100 ms when `duration` is under
    /// 11 ms (zero included), otherwise `duration`, as SDWebImage plays it.
    public static func playedDuration(_ duration: Duration) -> Duration {
        duration < .milliseconds(11) ? .milliseconds(100) : duration
    }

    /// The number of frames.
    public var frameCount: Int { timeline.frameCount }
    /// The loop count: 0 plays forever.
    public var loopCount: Int { timeline.loopCount }
    /// How long one play of the animation lasts, at normal speed.
    public var loopDuration: Duration { .nanoseconds(timeline.loopLength) }
    /// How long frame `index` is shown, at normal speed.
    public func playedDuration(ofFrame index: Int) -> Duration {
        Self.playedDuration(source.duration(ofFrame: index))
    }

    // MARK: Timing

    /// The frame, loop and finished flag at `elapsed` since the animation started (a pure function of
    /// `elapsed` and ``Configuration/playbackRate``; it does not move the current position).
    public func position(at elapsed: Duration) -> Position {
        timeline.position(at: scaled(elapsed))
    }

    /// The elapsed time at which the frame shown at `elapsed` gives way to the next, or `nil` once the
    /// animation has finished: when a display loop should wake up next.
    public func nextFrameChange(after elapsed: Duration) -> Duration? {
        guard let change = timeline.nextChange(after: scaled(elapsed)) else { return nil }
        let rate = effectiveRate
        if rate == 1 { return .nanoseconds(change) }
        // Round up, so that waking at the returned time always lands on the next frame.
        return .nanoseconds(Int64((Double(change) / rate).rounded(.up)))
    }

    // MARK: Frames

    /// The pixels of the frame at `elapsed`: from the buffer, or decoded now (and buffered). Makes that
    /// frame the current one, which moves the buffer's window (dropping frames behind it).
    /// Throws what the source throws, typically ``ImageCodingError`` for corrupt frame data.
    public func frame(at elapsed: Duration) throws -> PixelBuffer {
        let position = position(at: elapsed)
        let buffered = state.withLock { state -> PixelBuffer? in
            state.position = position
            state.buffer.moveAnchor(to: position.index)
            return state.buffer[position.index]
        }
        if let buffered { return buffered }
        return try decode(position.index)
    }

    /// Decodes the next ``prefetchCount`` frames after the current one that are not buffered yet, in
    /// order, and returns how many it decoded. On the last play of a finite animation it stops at the
    /// last frame. Call it after showing a frame, on whatever thread or task should do the work.
    @discardableResult
    public func prefetch() throws -> Int {
        let wanted = state.withLock { state -> [Int] in
            let current = state.position
            guard !current.isFinished else { return [] }
            let isLastLoop = timeline.loopCount > 0 && current.loop == timeline.loopCount - 1
            let ahead = isLastLoop ? min(prefetchCount, frameCount - 1 - current.index) : prefetchCount
            return (0..<max(ahead, 0)).map { (current.index + 1 + $0) % frameCount }.filter { state.buffer[$0] == nil }
        }
        var decoded = 0
        for index in wanted {
            // Playback may have moved on while earlier frames decoded.
            let stillWanted = state.withLock { $0.buffer[index] == nil && $0.buffer.isInWindow(index) }
            guard stillWanted else { continue }
            _ = try decode(index)
            decoded += 1
        }
        return decoded
    }

    /// Goes back to the first frame of the first loop; buffered frames inside the new window stay.
    public func reset() {
        state.withLock { state in
            state.position = timeline.position(at: 0)
            state.buffer.moveAnchor(to: 0)
        }
    }

    /// Drops every buffered frame (on memory pressure, say); later frames are decoded again.
    public func clearBuffer() {
        state.withLock { $0.buffer.removeAll() }
    }

    // MARK: State

    /// The position of the frame last returned by ``frame(at:)`` (the start after ``reset()``).
    public var currentPosition: Position { state.withLock { $0.position } }
    /// The index of the current frame.
    public var currentFrameIndex: Int { currentPosition.index }
    /// The number of complete plays before the current one.
    public var currentLoop: Int { currentPosition.loop }
    /// Whether the animation has finished (see ``Position/isFinished``).
    public var isFinished: Bool { currentPosition.isFinished }
    /// How many frames the player has asked its source to decode so far.
    public var decodedFrameCount: Int { state.withLock { $0.decodedFrameCount } }
    /// How many decoded frames the buffer holds now; never more than ``bufferCapacity``.
    public var bufferedFrameCount: Int { state.withLock { $0.buffer.count } }
    /// The indices of the buffered frames, ascending.
    public var bufferedFrameIndices: [Int] { state.withLock { $0.buffer.indices } }

    // MARK: Private

    /// Decodes frame `index` outside the lock, counts it and buffers it if it is still in the window.
    private func decode(_ index: Int) throws -> PixelBuffer {
        let pixels = try source.frame(at: index)
        state.withLock { state in
            state.decodedFrameCount += 1
            state.buffer.insert(pixels, at: index)
        }
        return pixels
    }

    private var effectiveRate: Double {
        configuration.playbackRate > 0 && configuration.playbackRate.isFinite ? configuration.playbackRate : 1
    }

    /// `elapsed` on the animation's own clock, in nanoseconds.
    private func scaled(_ elapsed: Duration) -> Int64 {
        let nanoseconds = AnimationTimeline.nanoseconds(elapsed)
        let rate = effectiveRate
        guard rate != 1 else { return nanoseconds }
        let scaled = Double(nanoseconds) * rate
        return scaled >= Double(Int64.max / 2) ? Int64.max / 2 : Int64(scaled)
    }
}
