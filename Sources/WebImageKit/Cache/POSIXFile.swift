package import Foundation
import Glibc

/// The system calls the disk cache is built on, each returning `errno` instead of throwing, so callers
/// can tell a missing file (a miss) from a failing one.
package enum POSIXFile {
    /// What `stat` says about a file, reduced to what the cache needs.
    struct Status {
        var isRegularFile: Bool
        var isDirectory: Bool
        var logicalSize: Int
        var allocatedSize: Int
        var accessDate: Date
        var modificationDate: Date
        var changeDate: Date
    }

    /// The text of an `errno` value.
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// `stat` of `path` (following no symbolic link), or the `errno`.
    static func status(_ path: String) -> Result<Status, Errno> {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .failure(currentError()) }
        return .success(Status(info))
    }

    /// What one read of a cache file returns: its bytes, and from the same descriptor its extended attribute
    /// (when asked for) and modification date.
    struct Contents {
        var data: Data
        /// The extended attribute's value, or the `errno` of reading it (`ENODATA`: none); nil when not asked for.
        var attribute: Result<[UInt8], Errno>?
        var modificationDate: Date
    }

    /// Reads the whole regular file at `path`; refreshes its access date when `touch` is set. A file of at
    /// least `mappingFrom` bytes is memory-mapped instead (read-only, private): its pages are read when used.
    static func read(_ path: String, touch: Bool, mappingFrom threshold: Int? = nil) -> Result<Data, Errno> {
        readContents(path, touch: touch, mappingFrom: threshold, attribute: false).map(\.data)
    }

    /// ``read(_:touch:mappingFrom:)``, plus the extended attribute when `attribute` is set and the modification
    /// date, all through one descriptor: one `open` per entry read.
    static func readContents(_ path: String, touch: Bool, mappingFrom threshold: Int?, attribute: Bool) -> Result<Contents, Errno> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(currentError()) }
        defer { _ = Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(currentError()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.EISDIR) }
        let size = Int(info.st_size)
        guard isWhole(size: size, recordedLength: ExtendedAttribute.length(of: fd)) else { return .failure(.EIO) }
        let data: Data
        if let threshold, size > 0, size >= threshold {
            switch map(fd, size: size) {
            case .success(let mapped): data = mapped
            case .failure(let code): return .failure(code)
            }
        } else {
            switch readAll(fd, size: size) {
            case .success(let read): data = read
            case .failure(let code): return .failure(code)
            }
        }
        if touch { touchAccessDate(fd) }
        let value = attribute ? ExtendedAttribute.get(from: fd) : nil
        return .success(Contents(data: data, attribute: value, modificationDate: Date(info.st_mtim)))
    }

    /// Whether a file of `size` bytes is as long as the length recorded with it, if any: an entry renamed into
    /// place before its bytes reached the disk (not flushed) and torn by a power loss comes back shorter, as ext4
    /// and XFS never expose blocks that were not written.
    static func isWhole(size: Int, recordedLength: Int?) -> Bool {
        recordedLength.map { $0 == size } ?? true
    }

    /// The `size` bytes of the open file, read from its current offset.
    private static func readAll(_ fd: Int32, size: Int) -> Result<Data, Errno> {
        var data = Data(count: size)
        let failure: Errno? = data.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let count = Glibc.read(fd, base + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return currentError()
                }
                if count == 0 { return .EIO }  // shorter than stat said: not an entry we wrote
                offset += count
            }
            return nil
        }
        if let failure { return .failure(failure) }
        return .success(data)
    }

    /// Sets the modification (and access) date of the file at `path` to now: an entry found current again.
    static func touchModificationDate(_ path: String) -> Errno? {
        utimensat(AT_FDCWD, path, nil, 0) == 0 ? nil : currentError()
    }

    /// The `size` bytes of the open file as a read-only private mapping, unmapped when the data is freed.
    private static func map(_ fd: Int32, size: Int) -> Result<Data, Errno> {
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            return .failure(currentError())
        }
        return .success(Data(bytesNoCopy: address, count: size, deallocator: .custom { pointer, count in
            _ = munmap(pointer, count)
        }))
    }

    /// Sets the access date of the open file to now, keeping its modification date.
    static func touchAccessDate(_ fd: Int32) {
        let utimeNow = (1 << 30) - 1, utimeOmit = (1 << 30) - 2
        var times = (timespec(tv_sec: 0, tv_nsec: utimeNow), timespec(tv_sec: 0, tv_nsec: utimeOmit))
        _ = withUnsafePointer(to: &times) { pointer in
            pointer.withMemoryRebound(to: timespec.self, capacity: 2) { futimens(fd, $0) }
        }
    }

    /// Creates `path` exclusively (`mode` less the umask) and returns its descriptor, or the `errno`.
    package static func createExclusive(_ path: String, mode: mode_t = 0o644) -> Result<Int32, Errno> {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        return fd >= 0 ? .success(fd) : .failure(currentError())
    }

    /// Writes all of `data` to `fd`, retrying short writes and interrupts.
    package static func writeAll(_ fd: Int32, _ data: Data) -> Errno? {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let count = write(fd, base + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return currentError()
                }
                offset += count
            }
            return nil
        }
    }

    /// Flushes `fd` to stable storage.
    static func synchronize(_ fd: Int32) -> Errno? {
        fsync(fd) == 0 ? nil : currentError()
    }

    /// Closes `fd`, reporting a deferred write error.
    package static func close(_ fd: Int32) -> Errno? {
        Glibc.close(fd) == 0 ? nil : currentError()
    }

    /// Atomically replaces `destination` by `source` (both in one directory).
    static func rename(_ source: String, to destination: String) -> Errno? {
        Glibc.rename(source, destination) == 0 ? nil : currentError()
    }

    /// Removes the file at `path`; a missing file is not an error.
    static func unlink(_ path: String) -> Errno? {
        if Glibc.unlink(path) == 0 || errno == ENOENT { return nil }
        return currentError()
    }

    /// The current `errno` as a code.
    static func currentError() -> Errno {
        Errno(rawValue: errno)
    }
}

extension POSIXFile.Status {
    init(_ info: stat) {
        let type = info.st_mode & S_IFMT
        self.init(
            isRegularFile: type == S_IFREG,
            isDirectory: type == S_IFDIR,
            logicalSize: Int(info.st_size),
            allocatedSize: Int(info.st_blocks) * 512,
            accessDate: Date(info.st_atim),
            modificationDate: Date(info.st_mtim),
            changeDate: Date(info.st_ctim)
        )
    }
}

extension Date {
    /// The date of a `timespec` since 1970.
    init(_ time: timespec) {
        self.init(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000)
    }
}
