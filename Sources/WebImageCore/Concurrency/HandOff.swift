/// Suspends until `start`'s `deliver` is called, and returns what it was given, passed through a lock that
/// ThreadSanitizer can see. `deliver` must be called exactly once, from any thread.
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
