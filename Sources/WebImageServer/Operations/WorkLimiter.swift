import CoreMetrics
import DequeModule
import Foundation
import WebImageKit

/// At most `workers` requests fetch and process at once; up to `maximumQueue` more wait their turn in order;
/// past that, ``acquire()`` throws ``WorkLimiter/Busy`` at once (the server answers 429).
final class WorkLimiter: Sendable {
    /// Every worker is busy and the queue is full.
    struct Busy: Error {}

    private struct State {
        var active = 0
        var nextID: UInt64 = 0
        var waiting: Deque<(id: UInt64, continuation: CheckedContinuation<Void, any Error>)> = []
    }

    let workers: Int
    let maximumQueue: Int
    private let state = LockedValue(State())
    private let metrics: ServerMetrics

    init(workers: Int, maximumQueue: Int, metrics: ServerMetrics) {
        self.workers = max(1, workers)
        self.maximumQueue = max(0, maximumQueue)
        self.metrics = metrics
    }

    /// The number of requests working and waiting now.
    var counts: (active: Int, waiting: Int) {
        state.withLock { ($0.active, $0.waiting.count) }
    }

    /// Takes a slot, waiting in line when all are busy; throws ``Busy`` when the line is full, or
    /// `CancellationError` when the task is cancelled while waiting.
    func acquire() async throws {
        enum Admission { case admitted, busy, wait(UInt64) }
        let admission: Admission = state.withLock { state in
            if state.active < workers {
                state.active += 1
                return .admitted
            }
            guard state.waiting.count < maximumQueue else { return .busy }
            state.nextID += 1
            return .wait(state.nextID)
        }
        switch admission {
        case .admitted:
            updateGauges()
        case .busy:
            throw Busy()
        case .wait(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let cancelled = state.withLock { state in
                        if Task.isCancelled { return true }
                        state.waiting.append((id, continuation))
                        return false
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) }
                    updateGauges()
                }
            } onCancel: {
                let removed = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                    guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiting.remove(at: index).continuation
                }
                removed?.resume(throwing: CancellationError())
                updateGauges()
            }
        }
    }

    /// Gives the slot to the first in line, or frees it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if let first = state.waiting.popFirst() { return first.continuation }
            state.active -= 1
            return nil
        }
        next?.resume()
        updateGauges()
    }

    private func updateGauges() {
        let (active, waiting) = counts
        metrics.inFlight.set(active)
        metrics.queued.set(waiting)
        metrics.imgproxy.setImagesInProgress(active)
    }
}
