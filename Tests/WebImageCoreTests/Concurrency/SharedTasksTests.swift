import Testing
import WebImageCore

/// Every wait here is on an event; the time limit fails a test whose event never comes.
@Suite(.timeLimit(.minutes(1))) struct SharedTasksTests {
    struct Failure: Error, Equatable {}

    /// Work held until `latch` opens, which reports its start and its cancellation to `events`.
    static func heldWork(
        _ latch: Latch, events: AsyncStream<String>.Continuation, runs: LockedValue<Int>, result: Int = 42
    ) -> @Sendable () async throws -> Int {
        {
            runs.withLock { $0 += 1 }
            events.yield("started")
            await withTaskCancellationHandler {
                await latch.wait()
            } onCancel: {
                events.yield("cancelled")
            }
            return result
        }
    }

    @Test func oneRunPerKeyHoweverManyCallers() async throws {
        let tasks = SharedTasks<String, Int>()
        let latch = Latch()
        let runs = LockedValue(0)
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        let work = Self.heldWork(latch, events: sink, runs: runs)
        let callers = (0..<8).map { _ in Task { try await tasks.value(for: "a", work) } }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "started")
        try await waitUntil { tasks.callerCount == 8 }
        latch.open()
        for caller in callers { #expect(try await caller.value == 42) }
        #expect(runs.withLock { $0 } == 1)
        #expect(tasks.runningCount == 0)
    }

    @Test func aCancelledCallerLeavesAtOnceWhileAnotherStillGetsTheValue() async throws {
        let tasks = SharedTasks<String, Int>()
        let latch = Latch()
        let runs = LockedValue(0)
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        let work = Self.heldWork(latch, events: sink, runs: runs)
        let leaving = Task { try await tasks.value(for: "a", work) }
        let staying = Task { try await tasks.value(for: "a", work) }
        try await waitUntil { tasks.callerCount == 2 }
        leaving.cancel()
        // The work is still held: the cancelled caller's wait ends without it.
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(tasks.callerCount == 1)
        latch.open()
        #expect(try await staying.value == 42)
        sink.finish()
        #expect(await events.contains("cancelled") == false)
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func theWorkIsCancelledWhenItsLastCallerLeaves() async throws {
        let tasks = SharedTasks<String, Int>()
        let latch = Latch()
        let runs = LockedValue(0)
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        let work = Self.heldWork(latch, events: sink, runs: runs)
        let first = Task { try await tasks.value(for: "a", work) }
        let second = Task { try await tasks.value(for: "a", work) }
        try await waitUntil { tasks.callerCount == 2 }
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "started")
        #expect(await iterator.next() == "cancelled")
        #expect(tasks.runningCount == 0)
        latch.open()
    }

    @Test func aFailingWorkFailsEveryCaller() async throws {
        let tasks = SharedTasks<String, Int>()
        let latch = Latch()
        let work: @Sendable () async throws -> Int = {
            await latch.wait()
            throw Failure()
        }
        let callers = (0..<3).map { _ in Task { try await tasks.value(for: "a", work) } }
        try await waitUntil { tasks.callerCount == 3 }
        latch.open()
        for caller in callers {
            await #expect(throws: Failure.self) { try await caller.value }
        }
    }

    @Test func aNewCallAfterTheEndStartsNewWork() async throws {
        let tasks = SharedTasks<String, Int>()
        let runs = LockedValue(0)
        let work: @Sendable () async throws -> Int = { runs.withLock { $0 += 1; return $0 } }
        #expect(try await tasks.value(for: "a", work) == 1)
        #expect(try await tasks.value(for: "a", work) == 2)
        #expect(try await tasks.value(for: "b", work) == 3)
    }

    @Test func aNewCallAfterEveryCallerLeftStartsNewWorkWhileTheOldStops() async throws {
        let tasks = SharedTasks<String, Int>()
        let latch = Latch()
        let runs = LockedValue(0)
        let (_, sink) = AsyncStream.makeStream(of: String.self)
        let held = Self.heldWork(latch, events: sink, runs: runs, result: 1)
        let first = Task { try await tasks.value(for: "a", held) }
        try await waitUntil { tasks.callerCount == 1 }
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(try await tasks.value(for: "a") { 2 } == 2)
        latch.open()
    }

    @Test func aCallerCancelledBeforeItJoinsStartsNoWork() async throws {
        let tasks = SharedTasks<String, Int>()
        let latch = Latch()
        let runs = LockedValue(0)
        let caller = Task {
            await latch.wait()
            return try await tasks.value(for: "a") { runs.withLock { $0 += 1 }; return 1 }
        }
        caller.cancel()
        latch.open()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(runs.withLock { $0 } == 0)
    }

    @Test func aCallbackCallerThatLeftReceivesNothingAndTheRunSeesOnlyWhoStays() async throws {
        let tasks = SharedTasks<String, Int>()
        let latch = Latch()
        let (received, sink) = AsyncStream.makeStream(of: String.self)
        let seen = LockedValue<[UInt64]>([])
        let work: @Sendable (SharedTasks<String, Int>.Run) async throws -> Int = { run in
            await latch.wait()
            seen.withLock { $0 = run.callerIDs }
            return 7
        }
        let leaving = tasks.join("a", work: work) { _ in sink.yield("leaving") }
        let staying = tasks.join("a", work: work) { outcome in sink.yield("staying \((try? outcome.get()) ?? 0)") }
        #expect(leaving.leave())
        #expect(!leaving.leave())
        latch.open()
        var iterator = received.makeAsyncIterator()
        #expect(await iterator.next() == "staying 7")
        #expect(seen.withLock { $0 } == [staying.id])
        #expect(!staying.leave())
    }
}

/// Opens once; every wait, before or after, then returns. Waiting is not cancellable.
final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())

    /// Returns once the latch is open.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if open { continuation.resume() }
        }
    }

    /// Opens the latch and releases every waiter.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Polls `condition` (for state that changes on another task with no event to wait on) and records an issue
/// when it still fails after `timeout` of polling.
func waitUntil(
    timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async throws {
    var polled = Duration.zero
    while !condition() {
        guard polled < timeout else {
            Issue.record("the condition was still false after \(timeout)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(1))
        polled += .milliseconds(1)
    }
}
