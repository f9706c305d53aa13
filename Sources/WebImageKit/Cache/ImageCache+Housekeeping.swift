
extension ImageCache {
    /// Housekeeping without an app lifecycle: removes expired memory entries (time to live),
    /// then cleans the disk (expired entries, then size).
    @discardableResult
    public func cleanExpired() async throws(DiskCacheError) -> DiskCleanResult {
        memoryCache.removeExpired()
        return try await diskCache.clean()
    }

    /// Starts (or restarts) the periodic sweep: every `interval`, ``cleanExpired()`` runs and its result is
    /// yielded to ``sweeps``. The sweep stops on ``stopSweeping()`` or when the cache is released.
    public func startSweeping(every interval: Duration) {
        let task = Task.detached(priority: .background) { [weak self] in
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                guard let cache = self else { return }
                if let result = try? await cache.cleanExpired(), !Task.isCancelled {
                    cache.sweepContinuation.yield(result)
                }
            }
        }
        let previous = withSweeper { current in
            defer { current = task }
            return current
        }
        previous?.cancel()
    }

    /// Stops the periodic sweep, if one runs.
    public func stopSweeping() {
        withSweeper { current in
            defer { current = nil }
            return current
        }?.cancel()
    }

    /// Whether a periodic sweep is running.
    public var isSweeping: Bool { withSweeper { $0 != nil } }

    /// Runs `body` on the sweep task slot under its lock.
    func withSweeper<R>(_ body: (inout Task<Void, Never>?) -> R) -> R {
        return sweeper.withLock { current in
            return body(&current)
        }
    }
}
