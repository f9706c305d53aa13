import Dispatch
package import Foundation
import WebImageKit

/// Measures the caches for `scripts/bench-cache.sh` (issue 4's benchmark): memory get/set latency,
/// disk store/query throughput and the time to clean a directory to half its size.
///
/// Memory operations are too short to time one by one (a clock read costs about as much), so each sample
/// is a batch of ``batchSize`` operations divided by its size; p50 and p99 are over those samples.
package enum CacheBenchmark {
    /// Operations per timed batch of memory operations.
    package static let batchSize = 64

    /// One memory-cache measurement.
    package struct Latency: Sendable, Codable {
        /// `get` or `set`.
        package var operation: String
        /// Threads running the operation at once.
        package var threads: Int
        /// Median nanoseconds per operation.
        package var p50: Double
        /// 99th-percentile nanoseconds per operation.
        package var p99: Double
    }

    /// Everything one run measured.
    package struct Results: Sendable, Codable {
        /// Memory get/set latencies.
        package var memory: [Latency]
        /// Entries used for the disk measurements.
        package var entries: Int
        /// Bytes per disk entry.
        package var entryBytes: Int
        /// Disk stores per second without `fsync` (the default).
        package var storesPerSecond: Double
        /// Disk stores per second with `fsync` before each rename (`synchronizesWrites`).
        package var syncedStoresPerSecond: Double
        /// Disk queries (hits) per second.
        package var queriesPerSecond: Double
        /// Milliseconds to clean the directory of ``entries`` entries to half its size.
        package var cleanMilliseconds: Double
        /// Entries removed by that clean.
        package var cleanRemoved: Int
    }

    private final class Value: Sendable {}

    /// Runs every measurement; disk work happens in fresh subdirectories of `directory`, removed afterwards.
    package static func run(directory: URL, entries: Int = 10_000, entryBytes: Int = 1024, operations: Int = 1_000_000) throws -> Results {
        let memory = [("get", 1), ("get", 2), ("set", 1), ("set", 2)].map { operation, threads in
            measureMemory(operation: operation, threads: threads, operations: operations, keys: entries)
        }
        let payload = Data((0..<entryBytes).map { UInt8(truncatingIfNeeded: $0) })
        let keys = (0..<entries).map { "https://example.com/images/\($0).jpg" }
        let clock = ContinuousClock()
        defer { try? FileManager.default.removeItem(at: directory) }

        let synced = DiskStorage(namespace: "synced", root: directory, configuration: DiskCacheConfiguration(synchronizesWrites: true))
        let syncedTime = try clock.measure { for key in keys { try synced.store(payload, forKey: key) } }

        var configuration = DiskCacheConfiguration()
        let storage = DiskStorage(namespace: "plain", root: directory, configuration: configuration)
        let storeTime = try clock.measure { for key in keys { try storage.store(payload, forKey: key) } }
        var hits = 0
        let queryTime = clock.measure { for key in keys where storage.data(forKey: key) != nil { hits += 1 } }

        configuration.maxSize = try synced.totalSize() - 1
        configuration.maxAge = nil
        let trimmed = DiskStorage(namespace: "synced", root: directory, configuration: configuration)
        var removed = 0
        let cleanTime = try clock.measure { removed = try trimmed.clean().trimmedCount }

        return Results(
            memory: memory, entries: entries, entryBytes: entryBytes,
            storesPerSecond: Double(entries) / seconds(storeTime),
            syncedStoresPerSecond: Double(entries) / seconds(syncedTime),
            queriesPerSecond: Double(hits) / seconds(queryTime),
            cleanMilliseconds: seconds(cleanTime) * 1000, cleanRemoved: removed)
    }

    /// Times `operations` gets or sets spread over `threads` threads, in batches.
    static func measureMemory(operation: String, threads: Int, operations: Int, keys count: Int) -> Latency {
        let cache = MemoryCache<Value>(configuration: MemoryCacheConfiguration(totalCostLimit: 0), cost: { _ in 1 })
        let keys = (0..<count).map { "https://example.com/images/\($0).jpg" }
        let values = keys.map { _ in Value() }
        for (key, value) in zip(keys, values) { cache.setValue(value, forKey: key) }
        let order = (0..<count).shuffled()
        let batches = max(1, operations / batchSize / threads)
        let samples = LockedValue<[Double]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var index = thread * 7919
            var local: [Double] = []
            local.reserveCapacity(batches)
            for _ in 0..<batches {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<batchSize {
                    let slot = order[index % count]
                    index &+= 1
                    if operation == "get" {
                        _ = cache.value(forKey: keys[slot])
                    } else {
                        cache.setValue(values[slot], forKey: keys[slot], cost: 1)
                    }
                }
                let elapsed = DispatchTime.now().uptimeNanoseconds - start
                local.append(Double(elapsed) / Double(batchSize))
            }
            samples.withLock { $0 += local }
        }
        let sorted = samples.withLock { $0 }.sorted()
        return Latency(
            operation: operation, threads: threads,
            p50: sorted[sorted.count / 2], p99: sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
    }

    private static func seconds(_ duration: Duration) -> Double {
        max(duration.seconds, 1e-9)
    }
}
