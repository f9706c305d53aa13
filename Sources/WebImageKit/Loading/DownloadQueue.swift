import DequeModule

/// The downloader's scheduler: which queued downloads may start now.
///
/// A pure state machine that does no I/O: the downloader keeps it behind its lock, tells it about
/// new, re-prioritised, removed and finished downloads, and starts whatever ``dequeueReady()`` returns.
/// Higher priorities always go first; within one priority the ``DownloadExecutionOrder`` decides.
/// LIFO needs no dependency chain as in the seeds: it simply takes the newest waiting entry.
struct DownloadQueue<ID: Hashable & Sendable>: Sendable {
    private struct Entry: Sendable {
        var id: ID
        var sequence: UInt64
    }

    /// The most downloads running at once; values below 1 count as 1.
    var maximumConcurrentDownloads: Int
    /// Which waiting download of one priority goes first.
    var executionOrder: DownloadExecutionOrder
    /// While suspended, nothing new starts; running downloads continue.
    var isSuspended = false

    /// Waiting entries per priority, each deque ordered by arrival.
    private var waiting: [DownloadPriority: Deque<Entry>] = [:]
    private var priorities: [ID: DownloadPriority] = [:]
    private var sequences: [ID: UInt64] = [:]
    private var nextSequence: UInt64 = 0
    /// The downloads started and not yet finished.
    private(set) var running: Set<ID> = []

    init(maximumConcurrentDownloads: Int, executionOrder: DownloadExecutionOrder) {
        self.maximumConcurrentDownloads = maximumConcurrentDownloads
        self.executionOrder = executionOrder
    }

    /// The number of downloads waiting to start.
    var waitingCount: Int { priorities.count }

    /// Whether `id` is waiting to start.
    func isWaiting(_ id: ID) -> Bool { priorities[id] != nil }

    /// Adds a download that waits for a slot.
    mutating func enqueue(_ id: ID, priority: DownloadPriority) {
        guard priorities[id] == nil, !running.contains(id) else { return }
        let entry = Entry(id: id, sequence: nextSequence)
        nextSequence += 1
        priorities[id] = priority
        sequences[id] = entry.sequence
        waiting[priority, default: []].append(entry)
    }

    /// Moves a waiting download to `priority`, keeping its place in arrival order; running ones are unaffected.
    mutating func setPriority(_ priority: DownloadPriority, for id: ID) {
        guard let old = priorities[id], old != priority, let sequence = sequences[id] else { return }
        removeEntry(id, from: old)
        priorities[id] = priority
        var deque = waiting[priority, default: []]
        let index = deque.firstIndex { $0.sequence > sequence } ?? deque.endIndex
        deque.insert(Entry(id: id, sequence: sequence), at: index)
        waiting[priority] = deque
    }

    /// The priority a waiting download has, or `nil` when it is not waiting.
    func priority(of id: ID) -> DownloadPriority? { priorities[id] }

    /// Removes a waiting download; returns whether it was waiting.
    @discardableResult
    mutating func removeWaiting(_ id: ID) -> Bool {
        guard let priority = priorities.removeValue(forKey: id) else { return false }
        sequences[id] = nil
        removeEntry(id, from: priority)
        return true
    }

    /// Frees the slot of a running download.
    mutating func finish(_ id: ID) {
        running.remove(id)
    }

    /// Marks as running, and returns in start order, every waiting download that may start now.
    mutating func dequeueReady() -> [ID] {
        var started: [ID] = []
        while !isSuspended, running.count < max(1, maximumConcurrentDownloads), let id = popNext() {
            running.insert(id)
            started.append(id)
        }
        return started
    }

    private mutating func popNext() -> ID? {
        for priority in DownloadPriority.allCases.reversed() {
            guard waiting[priority]?.isEmpty == false else { continue }
            // Removed in place: a copy taken out of the dictionary would copy the whole deque.
            guard let entry = executionOrder == .fifo ? waiting[priority]?.removeFirst() : waiting[priority]?.removeLast()
            else { continue }
            priorities[entry.id] = nil
            sequences[entry.id] = nil
            return entry.id
        }
        return nil
    }

    private mutating func removeEntry(_ id: ID, from priority: DownloadPriority) {
        guard let index = waiting[priority]?.firstIndex(where: { $0.id == id }) else { return }
        waiting[priority]?.remove(at: index)
    }
}
