import Dispatch
package import Foundation
import WebImageKit

/// A long run of loads with random cancellations through one ``ImageManager`` (issue 8's soak,
/// `scripts/soak.sh`): counts what happened and samples resident memory, which must not grow once the
/// caches are warm.
package enum SoakRun {
    /// What one run did.
    package struct Results: Sendable, Codable {
        /// Loads started.
        package var loads: Int
        /// Loads that delivered an image.
        package var completed: Int
        /// Completed loads answered from memory, from disk, and by a download.
        package var fromMemory: Int
        /// See ``fromMemory``.
        package var fromDisk: Int
        /// See ``fromMemory``.
        package var fromNetwork: Int
        /// Loads that failed (the error URLs of the mix, or a fault).
        package var failed: Int
        /// Loads cancelled before they finished.
        package var cancelled: Int
        /// Loads that completed more than once, or completed after being cancelled: must be 0.
        package var duplicates: Int
        /// Wall-clock seconds.
        package var seconds: Double
        /// Resident memory in MiB once a quarter of the loads were started (every URL has been fetched by then).
        package var residentAfterWarmUp: Double
        /// Resident memory in MiB at half the loads.
        package var residentAtHalf: Double
        /// Resident memory in MiB at the end.
        package var residentAtEnd: Double
        /// The highest resident memory sampled, in MiB.
        package var residentPeak: Double
        /// Resident memory in MiB at every tenth of the run (0%, 10%, … 100% of the loads), to show the trend.
        package var residentByTenth: [Double]
    }

    /// Runs at least `loads` loads, and for at least `seconds`, of URLs picked at random from `urls`,
    /// `concurrency` at a time; each is cancelled with probability `cancelFraction` at a random moment. The
    /// manager's memory cache is limited to `memoryLimit` bytes and its disk cache lives in `directory`
    /// (removed afterwards). Resident memory is sampled every 1,000 loads.
    package static func run(
        urls: [URL], loads: Int, seconds: Double = 0, concurrency: Int, cancelFraction: Double, memoryLimit: Int,
        directory: URL
    ) async throws -> Results {
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ImageCache.Configuration()
        configuration.memory.totalCostLimit = memoryLimit
        configuration.memory.usesWeakCache = false
        let downloads = ImageDownloader.Configuration()
        let clock = ContinuousClock()
        let start = clock.now
        let counts = LockedValue(Counts())
        var started = 0
        try await withImageDownloader(configuration: downloads) { downloader in
            let manager = ImageManager(
                cache: ImageCache(namespace: "soak", root: directory, configuration: configuration), loader: downloader)
            await withTaskGroup(of: Void.self) { group in
                while started < loads || (clock.now - start).seconds < seconds {
                    if started >= concurrency { await group.next() }
                    if started % 1_000 == 0 { counts.withLock { $0.samples.append((started, SoakRun.residentMiB())) } }
                    guard let url = urls.randomElement() else { break }
                    let cancels = Double.random(in: 0..<1) < cancelFraction
                    group.addTask { await load(url, manager: manager, cancels: cancels, counts: counts) }
                    started += 1
                }
                await group.waitForAll()
            }
        }
        let total = started
        counts.withLock { $0.samples.append((total, SoakRun.residentMiB())) }
        let elapsed = (clock.now - start).seconds
        let final = counts.withLock { $0 }
        let at = { (fraction: Double) in
            final.samples.first { Double($0.index) >= Double(total) * fraction }?.resident ?? 0
        }
        return Results(
            loads: total, completed: final.completed, fromMemory: final.bySource[.memory] ?? 0,
            fromDisk: final.bySource[.disk] ?? 0, fromNetwork: final.bySource[.notCached] ?? 0, failed: final.failed,
            cancelled: final.cancelled,
            duplicates: final.duplicates, seconds: elapsed, residentAfterWarmUp: at(0.25), residentAtHalf: at(0.5),
            residentAtEnd: final.samples.last?.resident ?? 0, residentPeak: final.samples.map(\.resident).max() ?? 0,
            residentByTenth: (0...10).map { at(Double($0) / 10) })
    }

    /// Resident memory of this process in MiB, from `/proc/self/statm` (0 where it cannot be read).
    package static func residentMiB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    private struct Counts: Sendable {
        var completed = 0
        var bySource: [ImageCacheType: Int] = [:]
        var failed = 0
        var cancelled = 0
        var duplicates = 0
        /// Resident MiB after `index` loads were started.
        var samples: [(index: Int, resident: Double)] = []
    }

    /// One load through the callback form, cancelled (maybe) at a random moment. A load that completes
    /// twice, or completes although its cancel took effect, counts as a duplicate.
    private static func load(_ url: URL, manager: ImageManager, cancels: Bool, counts: LockedValue<Counts>) async {
        let deliveries = LockedValue(0)
        let operationBox = LockedValue<LoadOperation?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = LockedValue(false)
            let resumeOnce: @Sendable () -> Void = {
                let first = resumed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume() }
            }
            // Retry failed URLs now and then, so that the error URLs keep reaching the server.
            let options: ImageLoadOptions = Int.random(in: 0..<10) == 0 ? [.retryFailed] : []
            let operation = manager.loadImage(with: url, options: options) { result in
                if case .success(let loaded) = result, !loaded.isFinished { return }
                deliveries.withLock { $0 += 1 }
                counts.withLock { counts in
                    switch result {
                    case .success(let loaded):
                        counts.completed += 1
                        counts.bySource[loaded.cacheType, default: 0] += 1
                    case .failure:
                        counts.failed += 1
                    }
                }
                resumeOnce()
            }
            operationBox.withLock { $0 = operation }
            guard cancels else { return }
            // Cancel now, or after the load had a moment to get going.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int.random(in: 0..<3))) {
                operation.cancel()
                if operation.isCancelled { resumeOnce() }
            }
        }
        if cancels { try? await Task.sleep(for: .milliseconds(2)) }  // room for a wrong, late delivery to show
        let delivered = deliveries.withLock { $0 }
        let cancelled = operationBox.withLock { $0?.isCancelled ?? false }
        counts.withLock { counts in
            if cancelled { counts.cancelled += 1 }
            if delivered > 1 || (cancelled && delivered > 0) { counts.duplicates += 1 }
        }
    }
}
