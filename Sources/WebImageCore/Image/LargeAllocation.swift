import Dispatch
import Foundation

/// Large, freshly allocated pixel storage, and the kernel's cost of mapping it: the first write to each
/// page of a fresh allocation faults, and the kernel zeroes the page (a third of the time of a large
/// decode on the machines we measured).
enum LargeAllocation {
    /// From how many bytes storage is backed by huge pages.
    static let threshold = 8 << 20
    /// From how many bytes a second thread maps the pages while the storage is written.
    static let populatingThreshold = 32 << 20
    private static let hugePage = 2 << 20
    /// The pages mapped per request of the second thread, which checks between them whether to stop.
    private static let populatingChunk = 4 << 20
    /// `MADV_POPULATE_WRITE` (Linux 5.14): maps pages as a write would, without writing.
    private static let populateWrite: Int32 = 23

    /// Asks the kernel to back `buffer` with transparent huge pages, so that writing it for the first
    /// time takes one page fault per 2 MiB instead of per 4 KiB. Harmless where unsupported.
    static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard buffer.count >= threshold, let base = buffer.baseAddress else { return }
        let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(hugePage - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
        #endif
    }

    /// Runs `body`, which writes the fresh storage `buffer` from its start, while (for storage from
    /// ``populatingThreshold`` bytes, on a machine with more than one core) another thread maps its
    /// pages from the end backwards, so that the kernel's page faults run beside the writer instead of
    /// inside it: the two meet where the writer has got to (a decoder writing slowly finds nearly every
    /// page mapped; one writing as fast as pages are mapped, half). Mapping a page writes nothing, so
    /// nothing races with `body`'s writes. The other thread stops when `body` returns or throws, and is
    /// waited for. Does nothing more where `MADV_POPULATE_WRITE` is not supported.
    static func populatingPages<R, E: Error>(
        of buffer: UnsafeMutableRawBufferPointer, _ body: () throws(E) -> R
    ) throws(E) -> R {
        #if os(Linux)
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard buffer.count >= populatingThreshold, pageSize > 0, ProcessInfo.processInfo.activeProcessorCount > 1,
              let base = buffer.baseAddress else { return try body() }
        let start = (Int(bitPattern: base) + pageSize - 1) & ~(pageSize - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(pageSize - 1)
        guard end - start >= populatingChunk else { return try body() }
        let stop = LockedValue(false)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            var chunkEnd = end
            while chunkEnd > start, !stop.withLock({ $0 }) {
                let chunkStart = max(start, chunkEnd - populatingChunk)
                guard let chunk = UnsafeMutableRawPointer(bitPattern: chunkStart),
                      madvise(chunk, chunkEnd - chunkStart, populateWrite) == 0 else { break }
                chunkEnd = chunkStart
            }
            finished.signal()
        }
        defer {
            stop.withLock { $0 = true }
            finished.wait()
        }
        return try body()
        #else
        return try body()
        #endif
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
