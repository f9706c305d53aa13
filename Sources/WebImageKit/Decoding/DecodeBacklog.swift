import WebImageCore

/// Keeps the bytes that loads have downloaded but not yet decoded within a budget.
///
/// Decoding runs a few images at a time (one per core); a fast network or disk delivers bytes faster than
/// that, and every body waiting for its decode stays in memory: 200 loads of 1 MB images from a local
/// server held about 230 MB of bytes waiting. So a load enters here before its loader starts and leaves
/// after its decode: it waits while the bytes waiting for decoding, plus an estimate for each load
/// already downloading, would pass the budget. On a network slower than decoding nothing waits.
/// Waiting loads go in priority order, first come first served within a priority.
final class DecodeBacklog: Sendable {
    /// One admitted load; give it back with ``leave(_:)``, whatever happens to the load.
    struct Ticket: Sendable {
        fileprivate let id: UInt64
    }

    private struct Waiter {
        let id: UInt64
        let priority: DownloadPriority
        /// Resumes the waiting load: `true` admitted, `false` cancelled. Called once, after removal.
        let resume: @Sendable (Bool) -> Void
    }

    private struct State {
        /// Admitted loads whose bytes have not arrived, by ticket.
        var downloading: Set<UInt64> = []
        /// Admitted loads whose bytes wait for decoding (or are being decoded): their sizes, by ticket.
        var waiting: [UInt64: Int] = [:]
        var waitingBytes = 0
        /// The bytes of recent bodies, averaged: the estimate for a load still downloading. It starts at
        /// 1 MB, so that a burst of loads before any body has arrived admits at most budget / 1 MB of them.
        var averageBytes = 1 << 20
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0

        func hasRoom(budget: Int) -> Bool {
            downloading.isEmpty || waitingBytes + downloading.count * averageBytes < budget
        }

        /// Admits waiters, highest priority first, while there is room; returns what wakes them.
        mutating func admitWaiters(budget: Int) -> [Waiter] {
            var admitted: [Waiter] = []
            while hasRoom(budget: budget), let index = waiters.indices.max(by: { waiters[$0].priority < waiters[$1].priority }) {
                let waiter = waiters.remove(at: index)
                downloading.insert(waiter.id)
                admitted.append(waiter)
            }
            return admitted
        }
    }

    /// The most bytes held between download and decode, estimates included.
    let budget: Int
    private let state = LockedValue(State())

    init(budget: Int = 16 << 20) {
        self.budget = budget
    }

    /// How many loads wait for room.
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Waits for room, then admits the load. Returns `nil` when the task is cancelled while waiting.
    func enter(priority: DownloadPriority) async -> Ticket? {
        let admittedAtOnce: Ticket? = state.withLock { state in
            guard state.waiters.isEmpty, state.hasRoom(budget: budget) else { return nil }
            state.nextID += 1
            state.downloading.insert(state.nextID)
            return Ticket(id: state.nextID)
        }
        if let admittedAtOnce { return admittedAtOnce }
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        // A plain continuation: the only value crossing is the flag (no memory another thread built is read
        // after the resume), so there is nothing for ThreadSanitizer to order.
        let admitted: Bool = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                state.withLock { state in
                    state.waiters.append(Waiter(id: id, priority: priority) { continuation.resume(returning: $0) })
                }
                if Task.isCancelled { cancelWaiting(id) }
                for waiter in state.withLock({ $0.admitWaiters(budget: budget) }) { waiter.resume(true) }
            }
        } onCancel: {
            cancelWaiting(id)
        }
        return admitted ? Ticket(id: id) : nil
    }

    /// Records that the ticket's bytes arrived: they now wait for decoding.
    func downloaded(_ ticket: Ticket, bytes: Int) {
        state.withLock { state in
            guard state.downloading.remove(ticket.id) != nil else { return }
            state.waiting[ticket.id] = bytes
            state.waitingBytes += bytes
            state.averageBytes = (state.averageBytes * 7 + bytes) / 8
        }
    }

    /// Ends the ticket: its bytes, if any arrived, are decoded or dropped.
    func leave(_ ticket: Ticket) {
        let admitted = state.withLock { state in
            state.downloading.remove(ticket.id)
            state.waitingBytes -= state.waiting.removeValue(forKey: ticket.id) ?? 0
            return state.admitWaiters(budget: budget)
        }
        for waiter in admitted { waiter.resume(true) }
    }

    private func cancelWaiting(_ id: UInt64) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.resume(false)
    }
}
