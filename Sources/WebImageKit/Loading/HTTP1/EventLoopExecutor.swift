import NIOCore

/// An event loop as a task executor: a transfer that prefers it runs where its connection's bytes arrive, so
/// a response wakes no other thread before the caller.
final class EventLoopExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
