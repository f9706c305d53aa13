import WebImageKit

/// What the server's parts share about its life: whether it is draining (shutting down after the requests
/// in flight), so that `/health` answers 503 and load balancers move on.
final class ServerState: Sendable {
    private let draining = LockedValue(false)

    var isDraining: Bool { draining.withLock { $0 } }

    func startDraining() {
        draining.withLock { $0 = true }
    }
}
