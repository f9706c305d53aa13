import Glibc

/// Tells ThreadSanitizer about the ordering a `Synchronization.Mutex` provides.
///
/// On Linux, `Mutex` waits in an uninstrumented library (a futex), so under contention ThreadSanitizer does
/// not see the happens-before edge and reports false races on the guarded state (reproducible with a plain
/// `Mutex<[Int]>` and four threads). When the process runs under ThreadSanitizer, its `__tsan_acquire` and
/// `__tsan_release` are found at run time and called on entry to and exit from each critical section;
/// otherwise both are a nil check.
enum ThreadSanitizerAnnotations {
    private typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private struct Functions: @unchecked Sendable {  // C function pointers, looked up once, never changed
        var acquire: Annotation?
        var release: Annotation?
    }

    private static let functions = Functions(
        acquire: dlsym(nil, "__tsan_acquire").map { unsafeBitCast($0, to: Annotation.self) },
        release: dlsym(nil, "__tsan_release").map { unsafeBitCast($0, to: Annotation.self) }
    )

    /// Marks the start of a critical section guarded by the lock identified by `address`.
    @inline(__always)
    static func acquire(_ address: UnsafeMutableRawPointer) {
        if let acquire = functions.acquire { acquire(address) }
    }

    /// Marks the end of a critical section guarded by the lock identified by `address`.
    @inline(__always)
    static func release(_ address: UnsafeMutableRawPointer) {
        if let release = functions.release { release(address) }
    }
}
