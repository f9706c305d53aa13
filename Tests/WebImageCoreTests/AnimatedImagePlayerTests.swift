import Testing
import WebImageCore

/// A frame source with given durations whose frames are 2×1 buffers filled with their index, and
/// which records every frame it is asked to produce.
final class RecordingFrameSource: AnimatedImageFrameSource {
    let durations: [Duration]
    let loopCount: Int
    let pixelSize: PixelSize
    /// Frame indices that throw instead of producing pixels.
    let failingFrames: Set<Int>
    private let calls = LockedValue<[Int]>([])

    init(
        milliseconds: [Int], loopCount: Int = 0, pixelSize: PixelSize = PixelSize(width: 2, height: 1),
        failingFrames: Set<Int> = []
    ) {
        durations = milliseconds.map { .milliseconds($0) }
        self.loopCount = loopCount
        self.pixelSize = pixelSize
        self.failingFrames = failingFrames
    }

    var frameCount: Int { durations.count }
    func duration(ofFrame index: Int) -> Duration { durations[index] }

    func frame(at index: Int) throws -> PixelBuffer {
        calls.withLock { $0.append(index) }
        if failingFrames.contains(index) {
            throw ImageCodingError(.corruptData, format: .gif, "frame \(index) is broken")
        }
        return Self.pixels(index)
    }

    /// The indices asked for so far, in order.
    var requestedFrames: [Int] { calls.withLock { $0 } }

    /// What frame `index` holds: both pixels grey with value `index`.
    static func pixels(_ index: Int) -> PixelBuffer {
        let value = UInt8(index % 256)
        return PixelBuffer(width: 2, height: 1, fill: RGBA(red: value, green: value, blue: value))
    }
}

private typealias Position = AnimatedImagePlayer.Position

private func ms(_ value: Int) -> Duration { .milliseconds(value) }

@Suite struct AnimatedImagePlayerTimingTests {
    @Test func theFrameForATimeFollowsEachFramesDuration() {
        let player = AnimatedImagePlayer(source: RecordingFrameSource(milliseconds: [100, 200, 50]))
        let table: [(Int, Position)] = [
            (0, Position(index: 0, loop: 0, isFinished: false)),
            (99, Position(index: 0, loop: 0, isFinished: false)),
            (100, Position(index: 1, loop: 0, isFinished: false)),
            (299, Position(index: 1, loop: 0, isFinished: false)),
            (300, Position(index: 2, loop: 0, isFinished: false)),
            (349, Position(index: 2, loop: 0, isFinished: false)),
            (350, Position(index: 0, loop: 1, isFinished: false)),
            (450, Position(index: 1, loop: 1, isFinished: false)),
            (1049, Position(index: 2, loop: 2, isFinished: false)),
            (1050, Position(index: 0, loop: 3, isFinished: false)),
        ]
        for (elapsed, expected) in table {
            #expect(player.position(at: ms(elapsed)) == expected, "at \(elapsed) ms")
        }
        #expect(player.loopDuration == ms(350))
    }

    @Test func durationsUnder11MillisecondsZeroIncludedPlayAs100Milliseconds() {
        #expect(AnimatedImagePlayer.playedDuration(.zero) == ms(100))
        #expect(AnimatedImagePlayer.playedDuration(ms(10)) == ms(100))
        #expect(AnimatedImagePlayer.playedDuration(.microseconds(10_999)) == ms(100))
        #expect(AnimatedImagePlayer.playedDuration(ms(11)) == ms(11))
        #expect(AnimatedImagePlayer.playedDuration(ms(-5)) == ms(100))

        let player = AnimatedImagePlayer(source: RecordingFrameSource(milliseconds: [0, 10, 11, 5]))
        let table: [(Int, Int)] = [(0, 0), (99, 0), (100, 1), (199, 1), (200, 2), (210, 2), (211, 3), (310, 3)]
        for (elapsed, index) in table {
            #expect(player.position(at: ms(elapsed)).index == index, "at \(elapsed) ms")
        }
        #expect(player.position(at: ms(311)) == Position(index: 0, loop: 1, isFinished: false))
        #expect(player.loopDuration == ms(311))
    }

    @Test func aFiniteLoopCountStopsOnTheLastFrameAfterThatManyPlays() {
        let player = AnimatedImagePlayer(source: RecordingFrameSource(milliseconds: [100, 100, 100], loopCount: 2))
        #expect(player.position(at: ms(299)) == Position(index: 2, loop: 0, isFinished: false))
        #expect(player.position(at: ms(300)) == Position(index: 0, loop: 1, isFinished: false))
        #expect(player.position(at: ms(599)) == Position(index: 2, loop: 1, isFinished: false))
        #expect(player.position(at: ms(600)) == Position(index: 2, loop: 2, isFinished: true))
        #expect(player.position(at: .seconds(3600)) == Position(index: 2, loop: 2, isFinished: true))
    }

    @Test func aLoopCountOfOnePlaysOnce() {
        let player = AnimatedImagePlayer(source: RecordingFrameSource(milliseconds: [50, 50], loopCount: 1))
        #expect(player.position(at: ms(99)) == Position(index: 1, loop: 0, isFinished: false))
        #expect(player.position(at: ms(100)) == Position(index: 1, loop: 1, isFinished: true))
    }

    @Test func aLoopCountOfZeroLoopsForever() {
        let player = AnimatedImagePlayer(source: RecordingFrameSource(milliseconds: [100, 200], loopCount: 0))
        let position = player.position(at: .seconds(86_400 * 365) + ms(150))
        #expect(position == Position(index: 1, loop: 86_400 * 365 * 10 / 3, isFinished: false))
    }

    @Test func aSingleFrameIsFinishedFromTheStart() {
        let player = AnimatedImagePlayer(source: RecordingFrameSource(milliseconds: [0]))
        #expect(player.position(at: .zero) == Position(index: 0, loop: 0, isFinished: true))
        #expect(player.position(at: .seconds(10)) == Position(index: 0, loop: 0, isFinished: true))
        #expect(player.nextFrameChange(after: .zero) == nil)
    }

    @Test func aNegativeElapsedTimeIsTheStart() {
        let player = AnimatedImagePlayer(source: RecordingFrameSource(milliseconds: [100, 100]))
        #expect(player.position(at: ms(-500)) == Position(index: 0, loop: 0, isFinished: false))
    }

    @Test func thePlaybackRateScalesElapsedTime() {
        let source = RecordingFrameSource(milliseconds: [100, 100, 100], loopCount: 1)
        let double = AnimatedImagePlayer(source: source, configuration: .init(playbackRate: 2))
        #expect(double.position(at: ms(49)).index == 0)
        #expect(double.position(at: ms(50)).index == 1)
        #expect(double.position(at: ms(150)).isFinished)
        #expect(double.nextFrameChange(after: ms(60)) == ms(100))
        let half = AnimatedImagePlayer(source: source, configuration: .init(playbackRate: 0.5))
        #expect(half.position(at: ms(199)).index == 0)
        #expect(half.position(at: ms(200)).index == 1)
        let invalid = AnimatedImagePlayer(source: source, configuration: .init(playbackRate: 0))
        #expect(invalid.position(at: ms(100)).index == 1)
    }

    @Test func theNextFrameChangeIsWhenTheCurrentFrameEndsAndNilOnceFinished() {
        let player = AnimatedImagePlayer(source: RecordingFrameSource(milliseconds: [100, 200, 50], loopCount: 2))
        #expect(player.nextFrameChange(after: .zero) == ms(100))
        #expect(player.nextFrameChange(after: ms(100)) == ms(300))
        #expect(player.nextFrameChange(after: ms(320)) == ms(350))
        #expect(player.nextFrameChange(after: ms(360)) == ms(450))
        #expect(player.nextFrameChange(after: ms(690)) == ms(700))
        #expect(player.nextFrameChange(after: ms(700)) == nil)
    }
}

@Suite struct AnimatedImagePlayerBufferTests {
    @Test func theFrameForATimeHasThePixelsOfThatFrame() throws {
        let player = AnimatedImagePlayer(source: RecordingFrameSource(milliseconds: [100, 100, 100]))
        for (elapsed, index) in [(0, 0), (150, 1), (250, 2), (310, 0)] {
            #expect(try player.frame(at: ms(elapsed)) == RecordingFrameSource.pixels(index))
            #expect(player.currentFrameIndex == index)
        }
        #expect(player.currentLoop == 1)
    }

    @Test func aBufferMissDecodesOnlyTheRequestedFrameAndNothingAhead() throws {
        let source = RecordingFrameSource(milliseconds: Array(repeating: 100, count: 8))
        let player = AnimatedImagePlayer(source: source, configuration: .init(maximumBufferedFrames: 4))
        #expect(player.decodedFrameCount == 0) // creating a player decodes nothing
        _ = try player.frame(at: ms(250))
        #expect(source.requestedFrames == [2])
        #expect(player.decodedFrameCount == 1)
        #expect(player.bufferedFrameIndices == [2])
        _ = try player.frame(at: ms(299)) // the same frame again: from the buffer
        #expect(source.requestedFrames == [2])
    }

    @Test func prefetchDecodesTheFramesAheadOnceAndPlaybackThenUsesThem() throws {
        let source = RecordingFrameSource(milliseconds: Array(repeating: 100, count: 8))
        let player = AnimatedImagePlayer(source: source, configuration: .init(maximumBufferedFrames: 4, prefetchAhead: 2))
        _ = try player.frame(at: ms(650)) // frame 6
        #expect(try player.prefetch() == 2)
        #expect(source.requestedFrames == [6, 7, 0]) // wraps around to the next loop
        #expect(try player.prefetch() == 0) // already buffered
        #expect(player.bufferedFrameIndices == [0, 6, 7])
        #expect(try player.frame(at: ms(750)) == RecordingFrameSource.pixels(7))
        #expect(try player.frame(at: ms(850)) == RecordingFrameSource.pixels(0))
        #expect(player.decodedFrameCount == 3)
        #expect(player.bufferedFrameIndices == [0]) // 6 and 7 fell behind the window
    }

    @Test func theDefaultPrefetchFillsTheBuffer() throws {
        let source = RecordingFrameSource(milliseconds: Array(repeating: 100, count: 6))
        let player = AnimatedImagePlayer(source: source)
        #expect(player.bufferCapacity == 6)
        #expect(player.prefetchCount == 5)
        _ = try player.frame(at: .zero)
        #expect(try player.prefetch() == 5)
        for loop in 0..<3 {
            for index in 0..<6 { _ = try player.frame(at: ms(loop * 600 + index * 100)) }
        }
        #expect(player.decodedFrameCount == 6) // every frame decoded once, then played from memory
    }

    @Test func theBufferNeverHoldsMoreFramesThanItsCapacity() throws {
        let source = RecordingFrameSource(milliseconds: [30, 70, 10, 120, 40, 55, 90, 20, 65, 35], loopCount: 0)
        let player = AnimatedImagePlayer(source: source, configuration: .init(maximumBufferedFrames: 3))
        #expect(player.bufferCapacity == 3)
        #expect(player.prefetchCount == 2)
        var elapsed = 0
        while elapsed < 4000 {
            let pixels = try player.frame(at: ms(elapsed))
            let position = player.position(at: ms(elapsed))
            #expect(pixels == RecordingFrameSource.pixels(position.index))
            #expect(player.bufferedFrameCount <= 3)
            try player.prefetch()
            #expect(player.bufferedFrameCount <= 3)
            // Every buffered frame is the current one or among the next two.
            for index in player.bufferedFrameIndices {
                #expect((index - position.index + 10) % 10 < 3, "frame \(index) buffered at frame \(position.index)")
            }
            elapsed += 37
        }
    }

    @Test func theDefaultCapacityIsTheWholeAnimationUnder16MiBOtherwiseWhatFits() {
        func capacity(_ width: Int, _ height: Int, frames: Int) -> Int {
            let source = RecordingFrameSource(
                milliseconds: Array(repeating: 100, count: frames), pixelSize: PixelSize(width: width, height: height))
            return AnimatedImagePlayer(source: source).bufferCapacity
        }
        #expect(capacity(100, 100, frames: 50) == 50) // 2 MB in all
        #expect(capacity(1000, 1000, frames: 50) == 4) // 4 MB frames: four fit in 16 MiB
        #expect(capacity(3000, 2000, frames: 50) == 1) // a 24 MB frame: still one
        let budget = AnimatedImagePlayer(
            source: RecordingFrameSource(milliseconds: [100, 100, 100], pixelSize: PixelSize(width: 10, height: 10)),
            configuration: .init(bufferByteBudget: 800))
        #expect(budget.bufferCapacity == 2)
        let explicit = AnimatedImagePlayer(source: RecordingFrameSource(milliseconds: [100, 100]),
                                           configuration: .init(maximumBufferedFrames: 99, prefetchAhead: 99))
        #expect(explicit.bufferCapacity == 2)
        #expect(explicit.prefetchCount == 1)
    }

    @Test func prefetchStopsAtTheLastFrameOnTheLastPlayAndDoesNothingOnceFinished() throws {
        let source = RecordingFrameSource(milliseconds: [100, 100, 100, 100], loopCount: 2)
        let player = AnimatedImagePlayer(source: source, configuration: .init(maximumBufferedFrames: 3, prefetchAhead: 2))
        _ = try player.frame(at: ms(300)) // frame 3 of the first play
        try player.prefetch()
        #expect(source.requestedFrames == [3, 0, 1]) // the next play's first frames
        _ = try player.frame(at: ms(500)) // frame 1 of the last play
        #expect(try player.prefetch() == 1) // frame 2 (frame 3 is still buffered)
        _ = try player.frame(at: ms(700)) // frame 3 of the last play
        #expect(try player.prefetch() == 0) // nothing wraps around: the animation ends here
        #expect(source.requestedFrames == [3, 0, 1, 2])
        #expect(player.bufferedFrameIndices == [1, 3])
        _ = try player.frame(at: ms(5000))
        #expect(player.isFinished)
        #expect(player.currentPosition == Position(index: 3, loop: 2, isFinished: true))
        #expect(try player.prefetch() == 0)
        #expect(source.requestedFrames == [3, 0, 1, 2])
    }

    @Test func resetGoesBackToTheFirstFrameOfTheFirstPlay() throws {
        let source = RecordingFrameSource(milliseconds: [100, 100, 100], loopCount: 1)
        let player = AnimatedImagePlayer(source: source, configuration: .init(maximumBufferedFrames: 2))
        _ = try player.frame(at: ms(5000))
        #expect(player.isFinished)
        player.reset()
        #expect(player.currentPosition == Position(index: 0, loop: 0, isFinished: false))
        #expect(player.bufferedFrameIndices == []) // frame 2 is outside the window at frame 0
        try player.prefetch()
        #expect(source.requestedFrames == [2, 1])
    }

    @Test func clearingTheBufferDropsEveryFrameAndTheyAreDecodedAgain() throws {
        let source = RecordingFrameSource(milliseconds: [100, 100])
        let player = AnimatedImagePlayer(source: source)
        _ = try player.frame(at: .zero)
        player.clearBuffer()
        #expect(player.bufferedFrameCount == 0)
        _ = try player.frame(at: .zero)
        #expect(source.requestedFrames == [0, 0])
    }

    @Test func aSourceErrorReachesTheCallerAndNothingIsBuffered() throws {
        let source = RecordingFrameSource(milliseconds: [100, 100, 100], failingFrames: [1])
        let player = AnimatedImagePlayer(source: source)
        #expect(throws: ImageCodingError.self) { try player.frame(at: ms(150)) }
        #expect(player.bufferedFrameCount == 0)
        #expect(player.decodedFrameCount == 0)
        _ = try player.frame(at: .zero)
        #expect(throws: ImageCodingError.self) { try player.prefetch() }
        #expect(player.bufferedFrameIndices == [0])
    }

    @Test func concurrentCallersNeverPushTheBufferOverItsCapacity() async throws {
        let source = RecordingFrameSource(milliseconds: Array(repeating: 40, count: 12))
        let player = AnimatedImagePlayer(source: source, configuration: .init(maximumBufferedFrames: 3))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for step in 0..<200 {
                        _ = try player.frame(at: ms(step * 13 + worker * 7))
                        try player.prefetch()
                        #expect(player.bufferedFrameCount <= 3)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(player.bufferedFrameCount <= 3)
    }
}

@Suite struct DecodedFrameSourceTests {
    @Test func aPlayerForAnImagePlaysItsFramesDurationsAndLoopCount() throws {
        let frames = (0..<3).map { ImageFrame(pixels: RecordingFrameSource.pixels($0), duration: ms(($0 + 1) * 100)) }
        let image = Image(frames: frames, format: .gif, loopCount: 1)
        let player = AnimatedImagePlayer(image: image)
        #expect(player.frameCount == 3)
        #expect(player.loopDuration == ms(600))
        #expect(try player.frame(at: ms(150)) == frames[1].pixels)
        #expect(try player.frame(at: ms(599)) == frames[2].pixels)
        #expect(player.position(at: ms(600)) == Position(index: 2, loop: 1, isFinished: true))
        let source = DecodedFrameSource(image)
        #expect(source.totalDuration == ms(600))
        #expect(source.frameByteCount == 8)
        #expect(throws: ImageCodingError.self) { try source.frame(at: 3) }
    }
}
