import Foundation
import WebImageCore

extension DiskStorage {
    /// One entry found by listing the main directory.
    struct ListedEntry {
        var name: String
        /// The ``DiskCacheConfiguration/expirationDate`` of the file.
        var date: Date
        /// Allocated bytes of the entry plus its sidecar file, if any.
        var size: Int
        var hasSidecar: Bool
    }

    /// What the main directory holds: entries, and leftovers that are not entries.
    struct Listing {
        var entries: [ListedEntry] = []
        /// Temporary files of interrupted stores and sidecars without an entry.
        var leftovers: [String] = []
    }

    /// Removes expired entries, then trims by size, oldest first.
    ///
    /// 1. Leftover temporary files and orphaned sidecars are removed. (A store running at the same moment
    ///    through another `DiskStorage` on the same directory then fails cleanly; ``DiskCache`` serialises
    ///    its own stores and cleans on one queue, so this never happens within one cache.)
    /// 2. Entries whose ``DiskCacheConfiguration/expirationDate`` is older than `now − maxAge` are removed.
    /// 3. If ``DiskCacheConfiguration/maxSize`` is set and the rest take more, the oldest by the same date
    ///    are removed until they take less than `maxSize / 2`.
    ///
    /// Sizes are allocated bytes (`st_blocks × 512`, like `NSURLTotalFileAllocatedSizeKey`). Hidden files
    /// other than the cache's own and subdirectories are left alone; read-only directories are never cleaned.
    @discardableResult
    package func clean() throws(DiskCacheError) -> DiskCleanResult {
        let listing = try list()
        var result = DiskCleanResult()
        for leftover in listing.leftovers where POSIXFile.unlink(directoryPath + "/" + leftover) == nil {
            result.leftoverFilesRemoved += 1
        }
        let cutoff = configuration.maxAge.map { now().addingTimeInterval(-$0.seconds) }
        var remaining: [ListedEntry] = []
        for entry in listing.entries {
            if let cutoff, entry.date < cutoff, removeFiles(of: entry) {
                result.expiredCount += 1
                result.removedBytes += entry.size
            } else {
                remaining.append(entry)
            }
        }
        var total = remaining.reduce(0) { $0 + $1.size }
        if configuration.maxSize > 0, total > configuration.maxSize {
            let desired = configuration.maxSize / 2
            var kept: [ListedEntry] = []
            for entry in remaining.sorted(by: { $0.date < $1.date }) {
                if total >= desired, removeFiles(of: entry) {
                    total -= entry.size
                    result.trimmedCount += 1
                    result.removedBytes += entry.size
                } else {
                    kept.append(entry)
                }
            }
            remaining = kept
        }
        result.remainingCount = remaining.count
        result.remainingBytes = total
        return result
    }

    /// Deletes the main directory with everything in it and creates it again, empty.
    package func clear() throws(DiskCacheError) {
        do {
            if FileManager.default.fileExists(atPath: directoryPath) {
                try FileManager.default.removeItem(atPath: directoryPath)
            }
        } catch {
            throw DiskCacheError(.removeFailed, path: directoryPath, "cannot remove the cache directory",
                                 underlying: error)
        }
        try createDirectory()
    }

    /// The bytes allocated on disk for all entries of the main directory and their sidecar files
    /// (temporary files of stores in progress are not counted); 0 when the directory does not exist.
    package func totalSize() throws(DiskCacheError) -> Int {
        try list().entries.reduce(0) { $0 + $1.size }
    }

    /// The number of entries in the main directory (not temporary or sidecar files); 0 when it does not exist.
    package func count() throws(DiskCacheError) -> Int {
        try list().entries.count
    }

    /// Lists the main directory; an absent directory is empty.
    func list() throws(DiskCacheError) -> Listing {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directoryPath)
        } catch {
            if case .failure(.ENOENT) = POSIXFile.status(directoryPath) { return Listing() }
            throw DiskCacheError(.enumerationFailed, path: directoryPath, "cannot list the cache directory",
                                 underlying: error)
        }
        var sidecarSizes: [String: Int] = [:]
        var listing = Listing()
        for name in names where name.hasPrefix(".") {
            if name.hasPrefix(Self.temporaryPrefix) {
                listing.leftovers.append(name)
            } else if name.hasSuffix(Self.sidecarSuffix), name.count > 1 + Self.sidecarSuffix.count,
                      case .success(let status) = POSIXFile.status(directoryPath + "/" + name) {
                sidecarSizes[String(name.dropFirst().dropLast(Self.sidecarSuffix.count))] = status.allocatedSize
            }
        }
        for name in names where !name.hasPrefix(".") {
            let path = directoryPath + "/" + name
            guard case .success(let status) = POSIXFile.status(path), status.isRegularFile else { continue }
            let sidecar = sidecarSizes.removeValue(forKey: name)
            listing.entries.append(ListedEntry(
                name: name, date: date(of: status, path: path),
                size: status.allocatedSize + (sidecar ?? 0), hasSidecar: sidecar != nil
            ))
        }
        listing.leftovers += sidecarSizes.keys.map { Self.sidecarName(for: $0) }
        return listing
    }

    /// The configured expiry date of a file.
    private func date(of status: POSIXFile.Status, path: String) -> Date {
        switch configuration.expirationDate {
        case .accessDate: return status.accessDate
        case .modificationDate: return status.modificationDate
        case .changeDate: return status.changeDate
        case .creationDate:
            // Foundation reads the birth time through statx where the file system records it.
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            return attributes?[.creationDate] as? Date ?? status.modificationDate
        }
    }

    /// Removes an entry's file and sidecar; returns whether the entry is gone.
    private func removeFiles(of entry: ListedEntry) -> Bool {
        if entry.hasSidecar { _ = POSIXFile.unlink(directoryPath + "/" + Self.sidecarName(for: entry.name)) }
        return POSIXFile.unlink(directoryPath + "/" + entry.name) == nil
    }
}
