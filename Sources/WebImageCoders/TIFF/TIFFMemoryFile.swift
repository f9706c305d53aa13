import Foundation

/// The bytes of a TIFF held in memory, read through libtiff's client callbacks: libtiff never
/// touches the file system, and a read past the end is a short read it reports as an error.
final class TIFFMemoryFile {
    let bytes: UnsafeRawBufferPointer
    var position = 0
    /// libtiff's error messages, in order (they are never printed).
    var errors: [String] = []
    /// libtiff's warnings about data it could not read (a tag cut off by the end of the data), in order.
    var readWarnings: [String] = []

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Copies up to `count` bytes at the current position into `buffer`; returns how many it copied.
    func read(into buffer: UnsafeMutableRawPointer?, count: Int) -> Int {
        guard let buffer, count > 0, position < bytes.count, let base = bytes.baseAddress else { return 0 }
        let n = min(count, bytes.count - position)
        buffer.copyMemory(from: base + position, byteCount: n)
        position += n
        return n
    }

    /// Moves the position as `lseek` does; returns the new position, or `UInt64.max` (libtiff's -1) when invalid.
    func seek(to offset: UInt64, whence: Int32) -> UInt64 {
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = bytes.count
        default: return UInt64.max
        }
        // libtiff passes negative relative offsets as two's complement.
        let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: offset))
        guard !overflow, target >= 0 else { return UInt64.max }
        position = target
        return UInt64(target)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
