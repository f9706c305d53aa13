package import Dispatch

/// A serial dispatch queue as a `TaskExecutor`: a task that prefers it runs its non-isolated code as blocks on
/// the queue, in order with the queue's other blocks, one at a time.
///
/// The disk cache uses it so that an `async` operation runs on the cache's I/O queue without a continuation:
/// the task itself moves to the queue and back, and the runtime's job hand-overs are visible to
/// ThreadSanitizer (a continuation resumed from the queue is not, on Linux: swiftlang/swift#57803).
package final class QueueExecutor: TaskExecutor {
    /// The serial queue the jobs run on.
    package let queue: DispatchQueue

    /// An executor over `queue`, which must be serial.
    package init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Runs `work` on the queue, after the blocks queued before it, and returns its result. The calling task
    /// moves to the queue while `work` runs: no thread waits, and nothing else runs on the queue meanwhile.
    package func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        try await withTaskExecutorPreference(self) { () async throws(E) -> T in try work() }
    }

    /// Runs a job of a task that prefers this executor, as a block on the queue.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
