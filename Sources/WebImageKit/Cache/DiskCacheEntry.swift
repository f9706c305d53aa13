public import Foundation

/// One entry read from a disk cache: its bytes and its extended data.
public struct DiskCacheEntry: Sendable, Equatable {
    /// The stored bytes (typically the encoded image).
    public var data: Data
    /// The opaque blob stored beside the bytes (for example HTTP validators and the content type), if any.
    public var extendedData: Data?
    /// The file the entry was read from: in the main directory or a read-only one.
    package var url: URL
    /// When the entry was stored (or last found current by a revalidation); nil when not known.
    package var modificationDate: Date?

    /// Creates an entry.
    package init(data: Data, extendedData: Data?, url: URL) {
        self.data = data
        self.extendedData = extendedData
        self.url = url
    }
}
