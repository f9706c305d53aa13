package import Foundation
import WebImageKit

/// Measures ``ImageManager`` for `scripts/bench-manager.sh` (issue 6's benchmark): memory-hit latency
/// through the async and callback APIs, memory-hit throughput on every core, and cold loads over loopback.
package enum ManagerBenchmark {
    /// Loads per timed batch of memory hits (one hit is about as long as a clock read).
    package static let batchSize = 64

    /// Everything one run measured.
    package struct Results: Sendable, Codable {
        /// Median and 99th-percentile nanoseconds per `try await loadImage(from:)` memory hit, one task.
        package var asyncHitP50: Double
        /// 99th percentile of the same.
        package var asyncHitP99: Double
        /// The same through the callback form `loadImage(with:completed:)` (delivered before it returns).
        package var callbackHitP50: Double
        /// 99th percentile of the same.
        package var callbackHitP99: Double
        /// Memory hits per second with one task per core, all on one manager.
        package var hitsPerSecond: Double
        /// Tasks used for ``hitsPerSecond``.
        package var tasks: Int
        /// Cold loads (download, decode, store on disk) over loopback: median and 99th percentile, ms.
        package var coldP50: Double
        /// 99th percentile of the same.
        package var coldP99: Double
        /// Cold loads measured.
        package var coldLoads: Int
        /// Bytes of the image loaded cold.
        package var coldBytes: Int
    }

    /// Runs the measurements. `url` is an image on a local server; cold loads add `?n=<i>` so that each is a miss.
    package static func run(url: URL, directory: URL, coldLoads: Int = 50, hits: Int = 1_000_000) async throws -> Results {
        defer { try? FileManager.default.removeItem(at: directory) }
        let tasks = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let hot = ImageManager(cache: ImageCache(namespace: "hot", root: directory))
        let keys = (0..<1_000).map { URL(string: "bench://memory/\($0).png")! }
        let image = Image(pixels: PixelBuffer(width: 64, height: 64, fill: RGBA(red: 9, green: 9, blue: 9)))
        for key in keys {
            try await hot.cache.store(image, data: nil, forKey: hot.cacheKey(for: key), extendedData: nil, cacheType: .memory)
        }
        let asyncHits = try await asyncLatencies(hot, keys: keys, count: hits)
        let callbackHits = callbackLatencies(hot, keys: keys, count: hits)
        let throughput = try await throughput(hot, keys: keys, count: hits, tasks: tasks)

        let clock = ContinuousClock()
        var cold: [Double] = []
        var bytes = 0
        for index in 0..<coldLoads {
            let manager = ImageManager(cache: ImageCache(namespace: "cold-\(index)", root: directory))
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "n", value: "\(index)")]
            guard let coldURL = components?.url else { break }
            let start = clock.now
            let result = try await manager.loadImage(from: coldURL, options: [.waitStoreCache])
            cold.append(milliseconds(clock.now - start))
            bytes = result.data?.count ?? 0
        }
        return Results(
            asyncHitP50: percentile(asyncHits, 0.5), asyncHitP99: percentile(asyncHits, 0.99),
            callbackHitP50: percentile(callbackHits, 0.5), callbackHitP99: percentile(callbackHits, 0.99),
            hitsPerSecond: throughput, tasks: tasks,
            coldP50: percentile(cold, 0.5), coldP99: percentile(cold, 0.99), coldLoads: cold.count, coldBytes: bytes)
    }

    private static func asyncLatencies(_ manager: ImageManager, keys: [URL], count: Int) async throws -> [Double] {
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(count / batchSize)
        var index = 0
        for _ in 0..<(count / batchSize) {
            let start = clock.now
            for _ in 0..<batchSize {
                _ = try await manager.loadImage(from: keys[index])
                index = index == keys.count - 1 ? 0 : index + 1
            }
            samples.append(nanoseconds(clock.now - start) / Double(batchSize))
        }
        return samples
    }

    private static func callbackLatencies(_ manager: ImageManager, keys: [URL], count: Int) -> [Double] {
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(count / batchSize)
        var index = 0
        for _ in 0..<(count / batchSize) {
            let start = clock.now
            for _ in 0..<batchSize {
                manager.loadImage(with: keys[index]) { _ in }
                index = index == keys.count - 1 ? 0 : index + 1
            }
            samples.append(nanoseconds(clock.now - start) / Double(batchSize))
        }
        return samples
    }

    private static func throughput(_ manager: ImageManager, keys: [URL], count: Int, tasks: Int) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var index = task * 97 % keys.count
                    for _ in 0..<(count / tasks) {
                        _ = try await manager.loadImage(from: keys[index])
                        index = index == keys.count - 1 ? 0 : index + 1
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(count / tasks * tasks) / (milliseconds(clock.now - start) / 1000)
    }

    private static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        duration.seconds * 1e9
    }

    private static func milliseconds(_ duration: Duration) -> Double { nanoseconds(duration) / 1e6 }
}
