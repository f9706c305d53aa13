import Foundation
import Glibc
import WebImageKit

/// Large input files mapped into memory instead of read: no copy, and no fresh pages to fault in one by one
/// (a 3.5 MB JPEG took 1.9 ms to read into memory and 0.2 ms to map; issue 33).
///
/// Off until the process turns it on with ``enable()``, after making SIGBUS end it cleanly: a mapped file
/// that another program cuts short while it is read raises SIGBUS on the next access to the lost pages.
/// The `webimage` tool installs that handler (`wik_exit_on_bus_error`); code embedding WebImageTools
/// without one keeps reading files.
package enum MappedInput {
    /// Files smaller than this are read: for them mapping saves less than it costs.
    package static let minimumBytes = 256 * 1024
    private static let enabled = LockedValue(false)

    /// Lets ``InputFile/read(_:)`` map large regular files from now on. Call it only once SIGBUS ends the
    /// process cleanly.
    package static func enable() {
        enabled.withLock { $0 = true }
    }

    /// The bytes of the regular file at `path`, mapped read-only, or nil when mapping is off, the file is
    /// not a regular file of at least ``minimumBytes``, or it cannot be mapped (the caller then reads it).
    static func map(_ path: String) -> Data? {
        guard enabled.withLock({ $0 }) else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              status.st_size >= minimumBytes, let count = Int(exactly: status.st_size)
        else { return nil }
        // MAP_POPULATE maps every page at once from the page cache, instead of one fault per 64 KiB.
        guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0),
              address != MAP_FAILED
        else { return nil }
        return Data(bytesNoCopy: address, count: count, deallocator: .custom { pointer, count in
            _ = munmap(pointer, count)
        })
    }
}
