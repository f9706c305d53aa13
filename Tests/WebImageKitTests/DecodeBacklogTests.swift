import Testing
import WebImageCore
import WebImageTestSupport
@testable import WebImageKit

/// The bound on downloaded bytes waiting for decoding (issue 13: 200 loads at once stay near the cache's limit).
@Suite struct DecodeBacklogTests {
    /// Enters `backlog` on a task of its own and records `name` once admitted.
    static func enter(
        _ backlog: DecodeBacklog, _ priority: DownloadPriority, as name: String, into order: LockedValue<[String]>
    ) -> Task<DecodeBacklog.Ticket?, Never> {
        Task {
            let ticket = await backlog.enter(priority: priority)
            if ticket != nil { order.withLock { $0.append(name) } }
            return ticket
        }
    }

    @Test func aBurstIsAdmittedUpToTheBudgetAndTheRestWaitInPriorityOrder() async throws {
        // Before any body has arrived each load counts 1 MB: a 3 MB budget admits three at once.
        let backlog = DecodeBacklog(budget: 3 << 20)
        var admitted: [DecodeBacklog.Ticket] = []
        for _ in 0..<3 { admitted.append(try #require(await backlog.enter(priority: .normal))) }
        let order = LockedValue<[String]>([])
        let low = Self.enter(backlog, .low, as: "low", into: order)
        try await eventually { backlog.waitingCount == 1 }
        let high = Self.enter(backlog, .high, as: "high", into: order)
        try await eventually { backlog.waitingCount == 2 }
        #expect(order.withLock { $0 }.isEmpty)

        backlog.downloaded(admitted[0], bytes: 1 << 20)   // its bytes now wait for decoding: still full
        #expect(backlog.waitingCount == 2)
        backlog.leave(admitted[0])                         // decoded: room for one, the high-priority load
        _ = try #require(await high.value)
        #expect(order.withLock { $0 } == ["high"])
        backlog.leave(admitted[1])                         // failed before any bytes: room again
        _ = try #require(await low.value)
        #expect(order.withLock { $0 } == ["high", "low"])
    }

    @Test func aCancelledWaiterLeavesTheQueueAndBlocksNoOne() async throws {
        let backlog = DecodeBacklog(budget: 1 << 20)
        let first = try #require(await backlog.enter(priority: .normal))
        let order = LockedValue<[String]>([])
        let cancelled = Self.enter(backlog, .normal, as: "cancelled", into: order)
        try await eventually { backlog.waitingCount == 1 }
        cancelled.cancel()
        #expect(await cancelled.value == nil)
        #expect(backlog.waitingCount == 0)
        backlog.leave(first)
        #expect(await backlog.enter(priority: .normal) != nil)   // admitted at once: nothing is left over
        #expect(order.withLock { $0 }.isEmpty)
    }
}
