import Foundation
import WebImageKit

extension ImageProcessor {
    /// Asks the source again when its cached bytes are older than ``sourceMaxAge``, with the validators they
    /// were stored with: a 304 marks them fresh for another ``sourceMaxAge``; new bytes replace them, and the
    /// images made from the old ones leave the memory cache. Failures leave the cache as it was (the load
    /// that follows reports them).
    func revalidateIfStale(_ source: URL) async {
        let key = manager.cacheKey(for: source)
        let file = sourceCache.diskCache.fileURL(forKey: key)
        guard let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date,
            Date().timeIntervalSince(modified) >= sourceMaxAge.seconds
        else { return }
        let stored = await storedValidators(of: source)
        let validators = Validators(etag: stored?.etag, lastModified: stored?.lastModified)
        guard let fetched = try? await manager.loader.loadData(for: source, options: [], validators: validators, progress: nil) else { return }
        if fetched.isNotModified {
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
            return
        }
        let info = SourceValidators(response: fetched.response)
        try? await sourceCache.store(nil, data: fetched.data, forKey: key, extendedData: info.encoded(), cacheType: .disk)
        // The memory cache holds images derived from the old bytes under keys of their own: start afresh.
        try? await sourceCache.clear(cacheType: .memory)
    }
}
