package import Foundation
import Glibc
import WebImageKit

/// A fresh directory under the system temporary directory, removed by ``remove()``.
package struct TemporaryDirectory {
    package let url: URL
    package var path: String { url.path }

    package init(_ label: String = "cache") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("wik-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package func remove() { try? FileManager.default.removeItem(at: url) }

    /// The names in `subdirectory` (all of them, hidden ones too), sorted.
    package func names(in subdirectory: String = "") -> [String] {
        let path = subdirectory.isEmpty ? url.path : url.appendingPathComponent(subdirectory).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

/// A manual clock for time-to-live tests.
package final class TestClock: Sendable {
    package init() {}
    private let base = ContinuousClock.now
    private let offset = LockedValue<Duration>(.zero)

    package var now: ContinuousClock.Instant { base + offset.withLock { $0 } }
    package func advance(by duration: Duration) { offset.withLock { $0 += duration } }
}

/// A manual wall clock for disk expiry tests.
package final class TestDate: Sendable {
    private let value: LockedValue<Date>
    package init(_ date: Date = Date()) { value = LockedValue(date) }
    package var now: Date { value.withLock { $0 } }
    package func set(_ date: Date) { value.withLock { $0 = date } }
}

/// A cached object for memory cache tests; its cost is given explicitly.
package final class Box: Sendable {
    package let id: Int
    package init(_ id: Int) { self.id = id }
}

package enum FileDates {
    /// Sets a file's access and modification dates.
    package static func set(_ path: String, access: Date? = nil, modification: Date? = nil) {
        func spec(_ date: Date?) -> timespec {
            guard let date else { return timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2) }  // UTIME_OMIT
            return timespec(tv_sec: Int(date.timeIntervalSince1970), tv_nsec: 0)
        }
        let times = [spec(access), spec(modification)]
        _ = utimensat(AT_FDCWD, path, times, 0)
    }

    /// A file's access date.
    package static func access(_ path: String) -> Date {
        var info = stat()
        _ = stat(path, &info)
        return Date(timeIntervalSince1970: Double(info.st_atim.tv_sec))
    }

    /// Bytes allocated for a file.
    package static func allocated(_ path: String) -> Int {
        var info = stat()
        _ = stat(path, &info)
        return Int(info.st_blocks) * 512
    }
}

/// Deterministic contents for a key: the key and size as a header, a fill byte derived from the key, and
/// the key again as a trailer, so a truncated entry or one mixing two keys' bytes is detectable.
package enum EntryPayload {
    package static func make(key: String, size: Int) -> Data {
        var data = Data("\(key)|\(size)|".utf8)
        let fill = UInt8(truncatingIfNeeded: key.utf8.reduce(7) { $0 &* 31 &+ Int($1) })
        data.append(Data(repeating: fill, count: size))
        data.append(Data("|\(key)".utf8))
        return data
    }
}
