import Foundation

/// Hands every ``DownloadEvent`` to each open ``ImageDownloader/events()`` stream.
final class DownloadEventBroadcaster: Sendable {
    private struct State {
        var continuations: [UInt64: AsyncStream<DownloadEvent>.Continuation] = [:]
        var nextID: UInt64 = 0
        var isFinished = false
    }

    private let state = LockedValue(State())

    /// Whether any stream is open (so that events need not be built).
    var hasListeners: Bool { state.withLock { !$0.continuations.isEmpty } }

    /// A new stream of the events from now on; it ends when the downloader shuts down.
    func makeStream() -> AsyncStream<DownloadEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: DownloadEvent.self)
        let id: UInt64? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func yield(_ event: DownloadEvent) {
        for continuation in state.withLock({ Array($0.continuations.values) }) {
            continuation.yield(event)
        }
    }

    /// Ends every stream; later ones end at once.
    func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
