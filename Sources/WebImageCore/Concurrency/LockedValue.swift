#if canImport(Glibc)
package import Glibc
#elseif canImport(Musl)
package import Musl
#elseif canImport(Darwin)
package import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`: the one lock every WebImageKit module uses for small hot state.
///
/// Why not `Synchronization.Mutex`: on Linux it waits on a futex that ThreadSanitizer cannot see, so under
/// contention the sanitizer reports false races on the guarded state (reproducible with a plain
/// `Mutex<[Int]>` and four threads), and the test suite must run clean under `--sanitize=thread`.
/// ThreadSanitizer intercepts `pthread_mutex_lock`, so this lock needs no annotations. Uncontended it costs
/// about the same, and it never allocates after `init`.
package final class LockedValue<Value>: @unchecked Sendable {
    // Use a real value, not `()`: ThreadSanitizer takes accesses to a zero-size value for races.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    /// Creates a lock holding `value`.
    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Do not call back into the same lock from `body`.
    @inlinable
    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
