import Testing
import WebImageKit

/// SPEC OV-23: the options are bit sets with the seeds' raw values, so a stored or logged raw value means
/// what it meant to SDWebImage (`SDWebImageDownloaderOptions`, `SDWebImageOptions`).
@Suite struct OptionBitsTests {
    @Test func ov23DownloadOptionsKeepTheSeedsBits() {
        let bits: [(DownloadOptions, UInt)] = [
            (.lowPriority, 1 << 0), (.progressiveLoad, 1 << 1), (.handleCookies, 1 << 5),
            (.allowInvalidSSLCertificates, 1 << 6), (.highPriority, 1 << 7), (.scaleDownLargeImages, 1 << 8),
        ]
        for (option, raw) in bits { #expect(UInt(option.rawValue) == raw) }
        let combined: DownloadOptions = [.lowPriority, .handleCookies]
        #expect(combined.rawValue == 0b10_0001)
        #expect(combined.contains(.handleCookies) && !combined.contains(.highPriority))
    }

    @Test func ov23LoadOptionsKeepTheSeedsBits() {
        let bits: [(ImageLoadOptions, UInt)] = [
            (.retryFailed, 1 << 0), (.lowPriority, 1 << 1), (.cacheMemoryOnly, 1 << 2), (.progressiveLoad, 1 << 3),
            (.refreshCached, 1 << 4), (.handleCookies, 1 << 6), (.allowInvalidSSLCertificates, 1 << 7),
            (.highPriority, 1 << 8), (.delayPlaceholder, 1 << 9), (.transformAnimatedImage, 1 << 10),
            (.avoidAutoSetImage, 1 << 11), (.scaleDownLargeImages, 1 << 12), (.queryMemoryData, 1 << 13),
            (.queryMemoryDataSync, 1 << 14), (.queryDiskDataSync, 1 << 15), (.fromCacheOnly, 1 << 16),
            (.fromLoaderOnly, 1 << 17),
        ]
        for (option, raw) in bits { #expect(UInt(option.rawValue) == raw) }
        #expect(Set(bits.map(\.1)).count == bits.count)
    }
}
