/// Suspends until `start`'s `deliver` is called, and returns what it was given, passed through a lock that
/// ThreadSanitizer can see. `deliver` must be called exactly once, from any thread.
///
/// It is the library's one bridge from shared work to a caller awaiting it: the async forms of a shared
/// download (`ImageDownloader.data(for:)`), of a shared load (`ImageManager.loadImage(from:)`) and of any
/// coalesced work (`SharedTasks.value(for:_:)`), whose callers can each leave on their own while the work
/// goes on for the others. Awaiting the work's `Task` would order the hand-over for ThreadSanitizer but
/// cannot end one caller's wait early, so cancelling would wait for the whole download. Work that moves the
/// calling task instead (the decoding threads, the disk cache's queue) needs no bridge: see
/// `WorkerThreads.run` and `QueueExecutor.run`.
///
/// Why not return the value through the continuation: on Linux, when a continuation is resumed before its
/// task has finished suspending, the concurrency runtime hands the task over without anything
/// ThreadSanitizer observes (swiftlang/swift#57803), so it reports races on everything the resuming thread
/// built — seen here, intermittently, on images decoded on the disk cache's queue. Writing the value under
/// a pthread mutex before resuming and reading it under the same mutex afterwards makes that order visible.
package func withHandOff<T: Sendable>(_ start: (_ deliver: @escaping @Sendable (T) -> Void) -> Void) async -> T {
    let slot = LockedValue<T?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        start { value in
            slot.withLock { $0 = value }
            continuation.resume()
        }
    }
    guard let value = slot.withLock({ $0.take() }) else {
        preconditionFailure("withHandOff resumed without a value")
    }
    return value
}
