package import Foundation
package import WebImageKit

/// The library side of `webimage cache info|clean|clear`: inspect, clean or clear a disk cache directory.
///
/// ```swift
/// let report = try CacheMaintenance.clean(root: nil, namespace: "default")
/// ```
package enum CacheMaintenance {
    /// The storage for `<root>/<namespace>`; `root` `nil` is ``DiskCache/defaultRoot(environment:)``.
    package static func storage(
        root: URL?, namespace: String, configuration: DiskCacheConfiguration = DiskCacheConfiguration()
    ) -> DiskStorage {
        DiskStorage(namespace: namespace, root: root, configuration: configuration)
    }

    /// The directory, its entry count and the bytes they take.
    package static func info(root: URL?, namespace: String) throws(DiskCacheError) -> CacheReport {
        let storage = storage(root: root, namespace: namespace)
        return CacheReport(
            action: "info", directory: storage.directory.path,
            entries: try storage.count(), bytes: try storage.totalSize())
    }

    /// Removes expired entries, then trims by size (oldest first, down to half the size limit), and reports what was removed.
    package static func clean(
        root: URL?, namespace: String, configuration: DiskCacheConfiguration = DiskCacheConfiguration()
    ) throws(DiskCacheError) -> CacheReport {
        let storage = storage(root: root, namespace: namespace, configuration: configuration)
        let result = try storage.clean()
        return CacheReport(
            action: "clean", directory: storage.directory.path,
            entries: result.remainingCount, bytes: result.remainingBytes,
            removedEntries: result.expiredCount + result.trimmedCount, removedBytes: result.removedBytes,
            expiredEntries: result.expiredCount, trimmedEntries: result.trimmedCount)
    }

    /// Deletes every entry and reports how many there were.
    package static func clear(root: URL?, namespace: String) throws(DiskCacheError) -> CacheReport {
        let storage = storage(root: root, namespace: namespace)
        let entries = try storage.count(), bytes = try storage.totalSize()
        try storage.clear()
        return CacheReport(
            action: "clear", directory: storage.directory.path, entries: 0, bytes: 0,
            removedEntries: entries, removedBytes: bytes)
    }
}
