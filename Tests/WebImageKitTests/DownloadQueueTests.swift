import Testing
@testable import WebImageKit

/// The downloader's scheduler as a pure state machine (SPEC DL-17, DL-21, DL-41, DL-57, DL-58).
@Suite struct DownloadQueueTests {
    static func drain(_ queue: inout DownloadQueue<String>) -> [String] {
        var order: [String] = []
        while true {
            let started = queue.dequeueReady()
            guard let id = started.first, started.count == 1 else { return order + started }
            order += started
            queue.finish(id)
        }
    }

    @Test func fifoStartsTheOldestFirstWithinAPriority() {
        var queue = DownloadQueue<String>(maximumConcurrentDownloads: 1, executionOrder: .fifo)
        for id in ["a", "b", "c"] { queue.enqueue(id, priority: .normal) }
        #expect(Self.drain(&queue) == ["a", "b", "c"])
    }

    @Test func lifoStartsTheNewestFirstWithinAPriority() {  // SPEC DL-58
        var queue = DownloadQueue<String>(maximumConcurrentDownloads: 1, executionOrder: .lifo)
        for id in ["a", "b", "c"] { queue.enqueue(id, priority: .normal) }
        #expect(Self.drain(&queue) == ["c", "b", "a"])
    }

    @Test func higherPrioritiesGoFirst() {  // SPEC DL-57
        var queue = DownloadQueue<String>(maximumConcurrentDownloads: 1, executionOrder: .fifo)
        queue.enqueue("low", priority: .low)
        queue.enqueue("normal", priority: .normal)
        queue.enqueue("high", priority: .high)
        #expect(Self.drain(&queue) == ["high", "normal", "low"])
    }

    @Test func raisingAPriorityKeepsArrivalOrderInTheNewPriority() {
        var queue = DownloadQueue<String>(maximumConcurrentDownloads: 1, executionOrder: .fifo)
        queue.enqueue("a", priority: .low)
        queue.enqueue("b", priority: .high)
        queue.enqueue("c", priority: .high)
        queue.setPriority(.high, for: "a")
        #expect(queue.priority(of: "a") == .high)
        #expect(Self.drain(&queue) == ["a", "b", "c"])
    }

    @Test func theLimitCapsRunningDownloads() {
        var queue = DownloadQueue<String>(maximumConcurrentDownloads: 2, executionOrder: .fifo)
        for id in ["a", "b", "c"] { queue.enqueue(id, priority: .normal) }
        let first = queue.dequeueReady()
        let none = queue.dequeueReady()
        queue.finish("a")
        let next = queue.dequeueReady()
        #expect(first == ["a", "b"])
        #expect(none.isEmpty)
        #expect(next == ["c"])
    }

    @Test func aLimitBelowOneCountsAsOne() {
        var queue = DownloadQueue<String>(maximumConcurrentDownloads: 0, executionOrder: .fifo)
        queue.enqueue("a", priority: .normal)
        queue.enqueue("b", priority: .normal)
        let started = queue.dequeueReady()
        #expect(started == ["a"])
    }

    @Test func suspendingHoldsEverythingBack() {  // SPEC DL-41
        var queue = DownloadQueue<String>(maximumConcurrentDownloads: 6, executionOrder: .fifo)
        queue.isSuspended = true
        queue.enqueue("a", priority: .normal)
        let whileSuspended = queue.dequeueReady()
        #expect(whileSuspended.isEmpty)
        #expect(queue.waitingCount == 1)
        queue.isSuspended = false
        let afterResume = queue.dequeueReady()
        #expect(afterResume == ["a"])
    }

    @Test func removingAWaitingEntryDropsIt() {
        var queue = DownloadQueue<String>(maximumConcurrentDownloads: 1, executionOrder: .fifo)
        queue.enqueue("a", priority: .normal)
        queue.enqueue("b", priority: .normal)
        let removed = queue.removeWaiting("a")
        let removedAgain = queue.removeWaiting("a")
        #expect(removed)
        #expect(!removedAgain)
        #expect(Self.drain(&queue) == ["b"])
    }
}
