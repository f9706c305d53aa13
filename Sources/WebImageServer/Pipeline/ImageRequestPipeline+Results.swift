import CoreMetrics
import Foundation
import HTTPTypes
import WebImageKit

extension ImageRequestPipeline {
    /// Step "result cache": the result made for this key less than the source max-age ago.
    func cachedResult(_ job: ImageJob) async -> ProcessedImage? {
        let cached = await results.result(forKey: job.key, maximumAge: configuration.sourceMaxAge)
        (cached == nil ? metrics.resultCacheMisses : metrics.resultCacheHits).increment()
        return cached
    }

    /// Step "not modified?": the entity tag the result will have, known without processing when the source is
    /// cached, fresh and has validators (read from the cache's metadata, not its bytes); nil otherwise.
    func knownETag(_ job: ImageJob) async -> String? {
        guard let validators = await sources.freshValidators(for: job.source), let fingerprint = ETag.fingerprint(validators) else {
            return nil
        }
        return ETag.make(key: job.key, fingerprint: fingerprint)
    }

    /// Step "shared work": identical requests in flight share one run of `work`; a request that outlives the
    /// request timeout leaves it with 504 (the work stops when no request waits for it any more).
    func sharedWork(_ job: ImageJob, _ work: @escaping @Sendable () async throws(ServerError) -> ProcessedImage) async throws(ServerError) -> ProcessedImage {
        let shared = shared
        do {
            return try await withDeadline(configuration.requestTimeout) {
                try await shared.value(for: job.key) { try await work() }
            }
        } catch let error as ServerError {
            throw error
        } catch is DeadlinePassed {
            metrics.imgproxy.error(.timeout)
            throw .timedOut
        } catch {
            throw ServerError(.serviceUnavailable, "the request was cancelled")
        }
    }

    /// Step "admission": at most `workers` fetch and process at once, `maximumQueue` wait; past that 429.
    func admitted<T: Sendable>(_ work: () async throws(ServerError) -> T) async throws(ServerError) -> T {
        let queued = ContinuousClock.now
        do {
            try await admission.acquire()
            metrics.imgproxy.record(.queue, .now - queued)
        } catch is WorkLimiter.Busy {
            throw .busy
        } catch {
            throw ServerError(.serviceUnavailable, "the request was cancelled")
        }
        defer { admission.release() }
        return try await work()
    }

    /// Step "store": the result goes to the result cache once it has been asked for `cacheMinimumUses` times (a
    /// failure only means the next request processes again).
    func store(_ processed: ProcessedImage, _ job: ImageJob) async {
        guard cacheAdmission.admits("result " + job.key) else { return }
        await results.store(processed, forKey: job.key)
    }
}
