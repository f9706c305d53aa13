public import Foundation

/// The expiry and size rules of a ``DiskCache``.
///
/// ```swift
/// var configuration = DiskCacheConfiguration()
/// configuration.maxAge = .seconds(24 * 3600)
/// configuration.expirationDate = .accessDate     // reads keep entries alive
/// configuration.readOnlyDirectories = [bundledImages]
/// ```
public struct DiskCacheConfiguration: Sendable, Equatable {
    /// Which file date drives expiry and the oldest-first order of the size pass (`diskCacheExpireType`).
    public enum ExpirationDate: String, Sendable, CaseIterable {
        /// The last access (`st_atime`); reads refresh it explicitly, whatever the mount's `relatime`.
        case accessDate
        /// The last write (`st_mtime`): when the entry was stored (SDWebImage's default).
        case modificationDate
        /// The birth time (`statx` `stx_btime`) when the file system records it, else the modification date.
        case creationDate
        /// The last status change (`st_ctime`): stores, renames and extended-data updates.
        case changeDate
    }

    /// Where an entry's extended data lives.
    public enum ExtendedDataStorage: String, Sendable {
        /// The `user.webimagekit.extended` extended attribute, or a sidecar file where the file system
        /// refuses it (ENOTSUP) or the value is too large for it.
        case automatic
        /// Always a hidden sidecar file `.<entry name>.ext` next to the entry.
        case sidecarFile
    }

    /// Entries whose ``expirationDate`` is older than this are removed by ``DiskCache/clean()``;
    /// `nil` means no age limit. Default: one week (SDWebImage's `maxCacheAge`).
    public var maxAge: Duration?
    /// When the entries take more than this many bytes (allocated on disk), ``DiskCache/clean()``
    /// deletes the oldest until they take less than half of it; 0 means unlimited.
    ///
    /// Default: 1 GiB. SDWebImage's default is 0 (unlimited); a bounded default keeps a long-running
    /// server from filling its disk.
    public var maxSize: Int
    /// Which date expiry and the size pass use. Default: ``ExpirationDate/modificationDate``.
    public var expirationDate: ExpirationDate
    /// Directories searched, in order, after the main one on a lookup; never written or cleaned.
    public var readOnlyDirectories: [URL]
    /// Whether a store flushes the file to disk before renaming it into place, so that its entry survives a
    /// power loss: `fsync` for a store alone, one `syncfs` for stores waiting on the I/O queue together.
    /// Default: `false`, as SDWebImage, Nuke and browsers' caches: the rename alone makes an entry whole or absent
    /// after a crash of the process, and the length recorded with it (an extended attribute) makes one torn by a
    /// power loss a miss, never half an image (on file systems that bring a torn file back shorter: ext4 in its
    /// default `data=ordered` mode, XFS, btrfs; set `true` elsewhere). Where the length cannot be recorded
    /// (``ExtendedDataStorage/sidecarFile``, or a file system without extended attributes) the entry is flushed anyway.
    public var synchronizesWrites: Bool
    /// Where extended data is kept. Default: ``ExtendedDataStorage/automatic``.
    public var extendedDataStorage: ExtendedDataStorage
    /// Entries of at least this many bytes are memory-mapped instead of read into memory (the
    /// seeds' `diskCacheReadingOptions` with mapping): their pages are read as the decoder touches them
    /// and count as file cache, not as the process's own memory. `nil`, the default, reads every entry.
    ///
    /// Safe with this cache's own writes, which replace entries by renaming a new file into place (a mapped
    /// old file stays intact); a file truncated in place by another program while mapped would crash the
    /// reader, so leave it `nil` for directories other programs write into.
    public var memoryMappingThreshold: Int?

    /// Creates a configuration; every parameter defaults to the value documented on its property.
    public init(
        maxAge: Duration? = .seconds(7 * 24 * 60 * 60),
        maxSize: Int = 1 << 30,
        expirationDate: ExpirationDate = .modificationDate,
        readOnlyDirectories: [URL] = [],
        synchronizesWrites: Bool = false,
        extendedDataStorage: ExtendedDataStorage = .automatic,
        memoryMappingThreshold: Int? = nil
    ) {
        self.maxAge = maxAge
        self.maxSize = maxSize
        self.expirationDate = expirationDate
        self.readOnlyDirectories = readOnlyDirectories
        self.synchronizesWrites = synchronizesWrites
        self.extendedDataStorage = extendedDataStorage
        self.memoryMappingThreshold = memoryMappingThreshold
    }
}
