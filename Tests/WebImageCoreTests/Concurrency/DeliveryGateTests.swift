import Dispatch
import Testing
import WebImageCore

@Suite struct DeliveryGateTests {
    @Test func aFinalClaimSucceedsOnceAndLaterClaimsAndCancelsFail() {
        let gate = DeliveryGate()
        #expect(gate.claim(final: false))
        #expect(gate.claim(final: false))
        #expect(gate.claim(final: true))
        #expect(!gate.claim(final: true))
        #expect(!gate.claim(final: false))
        #expect(!gate.cancel())
        #expect(gate.isFinished && !gate.isCancelled && !gate.isRunning)
    }

    @Test func afterCancelNothingIsDeliveredAndASecondCancelDoesNothing() {
        let gate = DeliveryGate()
        #expect(gate.cancel())
        #expect(!gate.cancel())
        #expect(!gate.claim(final: false))
        #expect(!gate.claim(final: true))
        #expect(gate.isCancelled && !gate.isFinished)
    }

    @Test func cancelHandlersRunOnceLastAddedFirstAndAtOnceWhenAlreadyCancelled() {
        let gate = DeliveryGate()
        let order = LockedValue<[String]>([])
        gate.onCancel { order.withLock { $0.append("first") } }
        gate.onCancel { order.withLock { $0.append("second") } }
        gate.cancel()
        gate.cancel()
        #expect(order.withLock { $0 } == ["second", "first"])
        gate.onCancel { order.withLock { $0.append("late") } }
        #expect(order.withLock { $0 } == ["second", "first", "late"])
    }

    @Test func cancelHandlersNeverRunOnceTheGateFinished() {
        let gate = DeliveryGate()
        let ran = LockedValue(0)
        gate.onCancel { ran.withLock { $0 += 1 } }
        #expect(gate.claim(final: true))
        gate.cancel()
        gate.onCancel { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 0)
    }

    @Test func aRacingClaimAndCancelHaveExactlyOneWinner() {
        for _ in 0..<500 {
            let gate = DeliveryGate()
            let wins = LockedValue(0)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let won = index == 0 ? gate.claim(final: true) : gate.cancel()
                if won { wins.withLock { $0 += 1 } }
            }
            #expect(wins.withLock { $0 } == 1)
        }
    }
}
