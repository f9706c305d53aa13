extension AnimatedImagePlayer {
    /// How a player buffers frames and how fast it plays.
    public struct Configuration: Hashable, Sendable {
        /// The default frame-buffer budget: 16 MiB of decoded frames.
        public static let defaultBufferByteBudget = 16 << 20

        /// The most decoded frames kept at once; `nil` derives it from ``bufferByteBudget``.
        /// Clamped to `1…frameCount`.
        public var maximumBufferedFrames: Int?
        /// The memory the frame buffer may use when ``maximumBufferedFrames`` is `nil`: the whole
        /// animation when it fits, otherwise as many frames as fit (at least one). Default 16 MiB.
        public var bufferByteBudget: Int
        /// How many frames after the current one ``AnimatedImagePlayer/prefetch()`` decodes; `nil`
        /// fills the buffer (its size minus one). Clamped to `0…(buffer size − 1)`.
        public var prefetchAhead: Int?
        /// The playback speed: 2 plays twice as fast, 0.5 at half speed. Non-positive values play at 1.
        public var playbackRate: Double

        /// Creates a configuration; the defaults buffer 16 MiB, prefetch to fill it and play at normal speed.
        public init(
            maximumBufferedFrames: Int? = nil,
            bufferByteBudget: Int = Configuration.defaultBufferByteBudget,
            prefetchAhead: Int? = nil,
            playbackRate: Double = 1
        ) {
            self.maximumBufferedFrames = maximumBufferedFrames
            self.bufferByteBudget = bufferByteBudget
            self.prefetchAhead = prefetchAhead
            self.playbackRate = playbackRate
        }

        /// The buffer size for `frameCount` frames of `frameByteCount` bytes each.
        func bufferCapacity(frameCount: Int, frameByteCount: Int) -> Int {
            let frames = maximumBufferedFrames ?? bufferByteBudget / max(frameByteCount, 1)
            return min(max(frames, 1), max(frameCount, 1))
        }
    }

    /// Where an animation stands at some elapsed time.
    public struct Position: Hashable, Sendable, CustomStringConvertible {
        /// The frame shown, `0..<frameCount`.
        public var index: Int
        /// How many complete plays came before this one: 0 during the first. Once a finite animation
        /// has finished it equals the loop count.
        public var loop: Int
        /// Whether the animation has stopped for good: a finite loop count has been played (the last
        /// frame stays), or the animation has a single frame.
        public var isFinished: Bool

        /// Creates a position.
        public init(index: Int, loop: Int, isFinished: Bool) {
            self.index = index
            self.loop = loop
            self.isFinished = isFinished
        }

        public var description: String { "frame \(index), loop \(loop)\(isFinished ? ", finished" : "")" }
    }
}
