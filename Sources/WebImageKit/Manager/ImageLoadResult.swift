public import Foundation
public import WebImageCore

/// What a load delivers: the image, its bytes when known, where it came from, and its URL.
public struct ImageLoadResult: Sendable {
    /// The decoded (and transformed) image.
    public var image: Image
    /// The encoded bytes when the load had them: downloaded, or read from disk; `nil` for a memory hit
    /// (unless ``ImageLoadOptions/queryMemoryData``) and for transformed images.
    public var data: Data?
    /// ``ImageCacheType/memory`` or ``ImageCacheType/disk`` for a cache hit, ``ImageCacheType/notCached`` when loaded.
    public var cacheType: ImageCacheType
    /// The URL that was asked for.
    public var url: URL
    /// `false` for a partial image of a progressive download, `true` for a whole one.
    public var isFinished: Bool

    /// Creates a result.
    init(image: Image, data: Data? = nil, cacheType: ImageCacheType, url: URL, isFinished: Bool = true) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.url = url
        self.isFinished = isFinished
    }
}
