/// What ``DiskCache/clean()`` did: how much it removed and how much is left.
public struct DiskCleanResult: Sendable, Equatable {
    /// Entries removed because they were older than ``DiskCacheConfiguration/maxAge``.
    public var expiredCount: Int
    /// Entries removed by the size pass, oldest first.
    public var trimmedCount: Int
    /// Bytes (allocated on disk) freed by both passes, entries and their sidecar files.
    public var removedBytes: Int
    /// Entries left.
    public var remainingCount: Int
    /// Bytes (allocated on disk) the remaining entries take.
    public var remainingBytes: Int
    /// Leftover temporary files (from interrupted stores) and orphaned sidecar files removed.
    public var leftoverFilesRemoved: Int

    /// Creates a result.
    init(
        expiredCount: Int = 0, trimmedCount: Int = 0, removedBytes: Int = 0,
        remainingCount: Int = 0, remainingBytes: Int = 0, leftoverFilesRemoved: Int = 0
    ) {
        self.expiredCount = expiredCount
        self.trimmedCount = trimmedCount
        self.removedBytes = removedBytes
        self.remainingCount = remainingCount
        self.remainingBytes = remainingBytes
        self.leftoverFilesRemoved = leftoverFilesRemoved
    }
}
