import Foundation
import WebImageCore

/// One caller waiting for a download: its priority, its progress callback and its token, through which
/// it is completed exactly once.
struct DownloadSubscriber: Sendable {
    let id: UInt64
    let priority: DownloadPriority
    /// Whether progress values carry the bytes so far (the caller asked for ``DownloadOptions/progressiveLoad``).
    let wantsData: Bool
    let progress: (@Sendable (DownloadProgress) -> Void)?
    let token: DownloadSubscription
}

/// Everything the downloader shares between threads, kept behind one `LockedValue`.
///
/// A state machine without I/O: it decides which operation a caller attaches to, which operations may
/// start, and what a cancel means; ``ImageDownloader`` does what it says outside the lock.
struct DownloaderState: Sendable {
    /// One network download and the callers waiting for it.
    struct Operation: Sendable {
        let url: URL
        let key: String
        /// The request-shaping options of the caller that created the operation.
        let options: DownloadOptions
        /// The validators of a conditional request, if it is one.
        let validators: Validators?
        var subscribers: [DownloadSubscriber] = []
        /// The running transfer, once started.
        var task: Task<Void, Never>?
    }

    /// What a cancel requires the downloader to do.
    enum CancelAction: Sendable {
        /// Nothing more: the subscriber is gone (or was already), others remain.
        case none
        /// The last subscriber left a running operation: cancel its transfer.
        case cancelTransfer(Task<Void, Never>?)
    }

    /// The downloader's current configuration; setting it also updates the queue's limit and order.
    var configuration: ImageDownloader.Configuration {
        didSet {
            queue.maximumConcurrentDownloads = configuration.maximumConcurrentDownloads
            queue.executionOrder = configuration.executionOrder
        }
    }
    var queue: DownloadQueue<UInt64>
    private(set) var operations: [UInt64: Operation] = [:]
    /// URL key → the operation later callers attach to, while its body is still arriving.
    private(set) var attachable: [String: UInt64] = [:]
    private var nextID: UInt64 = 1
    var isShutDown = false

    init(configuration: ImageDownloader.Configuration) {
        self.configuration = configuration
        queue = DownloadQueue(
            maximumConcurrentDownloads: configuration.maximumConcurrentDownloads, executionOrder: configuration.executionOrder)
    }

    /// Downloads queued or running.
    var currentDownloadCount: Int { queue.waitingCount + queue.running.count }

    private mutating func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Adds a caller for `url`, attaching to the download in flight for the same key or queueing a
    /// new one; returns the operation and subscriber identifiers.
    mutating func subscribe(
        url: URL, key: String, options: DownloadOptions, validators: Validators? = nil,
        makeSubscriber: (UInt64) -> DownloadSubscriber
    ) -> (operation: UInt64, subscriber: UInt64) {
        let subscriber = makeSubscriber(makeID())
        let operationID: UInt64
        if let existing = attachable[key] {
            operationID = existing
        } else {
            operationID = makeID()
            operations[operationID] = Operation(url: url, key: key, options: options, validators: validators)
            attachable[key] = operationID
            queue.enqueue(operationID, priority: subscriber.priority)
        }
        operations[operationID]?.subscribers.append(subscriber)
        if let current = queue.priority(of: operationID), subscriber.priority > current {
            queue.setPriority(subscriber.priority, for: operationID)
        }
        return (operationID, subscriber.id)
    }

    /// Removes one caller. When none remain, a queued operation is dropped
    /// and a running one must be cancelled; a waiting operation's priority falls back to the highest remaining.
    mutating func unsubscribe(operation operationID: UInt64, subscriber subscriberID: UInt64) -> CancelAction {
        guard var operation = operations[operationID],
            let index = operation.subscribers.firstIndex(where: { $0.id == subscriberID })
        else { return .none }
        operation.subscribers.remove(at: index)
        operations[operationID] = operation
        guard operation.subscribers.isEmpty else {
            if queue.isWaiting(operationID), let top = operation.subscribers.map(\.priority).max() {
                queue.setPriority(top, for: operationID)
            }
            return .none
        }
        if attachable[operation.key] == operationID { attachable[operation.key] = nil }
        if queue.removeWaiting(operationID) {
            operations[operationID] = nil
            return .none
        }
        return .cancelTransfer(operation.task)
    }

    /// Marks every operation that may start now as running and returns them.
    mutating func takeReady() -> [UInt64] {
        queue.dequeueReady()
    }

    /// Stores the transfer task of a started operation.
    mutating func setTask(_ task: Task<Void, Never>, for operationID: UInt64) {
        operations[operationID]?.task = task
    }

    /// The URL, options and validators of an operation, if it still exists.
    func request(for operationID: UInt64) -> (url: URL, options: DownloadOptions, validators: Validators?)? {
        operations[operationID].map { ($0.url, $0.options, $0.validators) }
    }

    /// The current subscribers of an operation (for progress and for choosing decode options).
    func subscribers(of operationID: UInt64) -> [DownloadSubscriber] {
        operations[operationID]?.subscribers ?? []
    }

    /// The network part has ended: later callers start a new download and the slot is free.
    mutating func endTransfer(_ operationID: UInt64) {
        if let key = operations[operationID]?.key, attachable[key] == operationID { attachable[key] = nil }
        queue.finish(operationID)
    }

    /// Removes and returns one subscriber so it is called exactly once; `nil` if it cancelled meanwhile.
    mutating func takeSubscriber(_ subscriberID: UInt64, of operationID: UInt64) -> DownloadSubscriber? {
        guard let index = operations[operationID]?.subscribers.firstIndex(where: { $0.id == subscriberID }) else {
            return nil
        }
        return operations[operationID]?.subscribers.remove(at: index)
    }

    /// Forgets a finished operation, returning any subscribers still attached.
    mutating func removeOperation(_ operationID: UInt64) -> [DownloadSubscriber] {
        endTransfer(operationID)
        return operations.removeValue(forKey: operationID)?.subscribers ?? []
    }

    /// Empties the queue and detaches every subscriber; returns the subscribers to tell
    /// and the transfers to cancel. Running operations stay recorded until their tasks end.
    mutating func cancelAll() -> (subscribers: [DownloadSubscriber], tasks: [Task<Void, Never>]) {
        var subscribers: [DownloadSubscriber] = []
        var tasks: [Task<Void, Never>] = []
        for (id, operation) in operations {
            subscribers += operation.subscribers
            if queue.removeWaiting(id) {
                operations[id] = nil
            } else {
                operations[id]?.subscribers = []
                if let task = operation.task { tasks.append(task) }
            }
        }
        attachable = [:]
        return (subscribers, tasks)
    }

    /// The tasks of every running operation.
    var runningTasks: [Task<Void, Never>] { operations.values.compactMap(\.task) }
}
