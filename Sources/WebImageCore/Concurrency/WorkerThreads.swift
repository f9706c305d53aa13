#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A fixed number of threads of WebImageKit's own that run submitted work first come, first served.
///
/// Why not Swift's cooperative thread pool: it has only as many threads as the machine has cores, and
/// everything async in the process shares them. Decoding a large image is tens of milliseconds of CPU;
/// done on those threads, a few decodes at once stop every other task in the process (HTTP bodies are
/// not read, the idle timeouts of downloads fire while their bytes sit unprocessed). Work submitted here
/// waits for one of this pool's threads instead, so at most ``threadCount`` items run at once, which
/// also bounds the memory of decodes in flight.
///
/// The pool is also a `TaskExecutor`: a task started with it as its executor preference runs its
/// non-isolated code on these threads (the downloader's transfers do, so that reading a response body
/// never waits for a busy cooperative pool).
///
/// Hand-offs go through a pthread mutex and condition variable, which ThreadSanitizer sees. The threads
/// live as long as the process: use the shared pools, not one per object.
package final class WorkerThreads: TaskExecutor, @unchecked Sendable {
    /// The pool that decodes and transforms images: one thread per active core.
    package static let processing = WorkerThreads(
        name: "webimage-decode", threadCount: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// The pool that runs download transfers (reading bodies, progress, hand-offs): I/O, not CPU.
    package static let transfers = WorkerThreads(name: "webimage-transfer", threadCount: 2)

    /// How many items run at once at most.
    package let threadCount: Int
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Guarded by `mutex`.
    private var pending: [@Sendable () -> Void] = []
    private var head = 0

    /// Starts `threadCount` threads named `name`.
    package init(name: String, threadCount: Int) {
        self.threadCount = threadCount
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
        for index in 0..<threadCount {
            let thread = Thread { [self] in workLoop() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Queues `work`; it runs on one of the pool's threads.
    package func submit(_ work: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        pending.append(work)
        pthread_mutex_unlock(mutex)
        pthread_cond_signal(condition)
    }

    /// Runs `work` on one of the pool's threads and resumes the caller with its result.
    ///
    /// A task cancelled while `work` waits or runs still waits for it: synchronous work cannot be stopped
    /// from outside; check ``Task/isCancelled`` before calling when the work is optional.
    /// The calling task itself moves to the pool (this pool is its executor preference while `work` runs) and
    /// back, so no continuation is involved and every hand-over goes through the pool's mutex.
    package func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        try await withTaskExecutorPreference(self) { () async throws(E) -> T in try work() }
    }

    /// Runs a job of a task that prefers this executor.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    private func workLoop() -> Never {
        while true {
            pthread_mutex_lock(mutex)
            while head == pending.count {
                pthread_cond_wait(condition, mutex)
            }
            let work = pending[head]
            head += 1
            if head == pending.count {
                pending.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= pending.count {
                pending.removeFirst(head)
                head = 0
            }
            pthread_mutex_unlock(mutex)
            work()
        }
    }
}
