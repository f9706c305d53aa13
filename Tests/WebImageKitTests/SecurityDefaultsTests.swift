import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// The safe defaults (issue 8 item 6). The behaviour behind each is pinned elsewhere too: TLS in
/// `TLSTests`, file names in `DiskCacheTests`, pixel and frame limits in the coder tests, the response size
/// in `ImageDownloaderTests` and `FaultTests`.
@Suite struct SecurityDefaultsTests {
    @Test func theDefaultsVerifyCertificatesAndBoundPixelsFramesAndResponses() {
        let downloads = ImageDownloader.Configuration()
        #expect(downloads.maximumResponseSize == 50 << 20)
        #expect(downloads.retryPolicy == nil)
        #expect(!DownloadOptions().contains(.allowInvalidSSLCertificates))
        #expect(!ImageLoadOptions().contains(.allowInvalidSSLCertificates))
        let decoding = ImageDecodingOptions()
        #expect(decoding.maximumPixelCount == 100_000_000)
        #expect(decoding.maximumAnimationByteCount == 512 << 20)
    }

    @Test func aHostileURLIsStoredOnlyUnderItsHashInsideTheCacheDirectory() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let image = Image(pixels: PixelBuffer(width: 2, height: 2, fill: .white))
        for text in ["mock://h/../../../../etc/passwd", "mock://h/%2e%2e/%2e%2e/x.png", "mock://h/a/b/..%2F..%2Fc.jpg/"] {
            let url = try #require(URL(string: text))
            try await fixture.manager.saveImageToCache(image, for: url)
            let name = DiskStorage.fileName(forKey: fixture.manager.cacheKey(for: url))
            #expect(name.count >= 32 && !name.contains("/") && !name.contains(".."))
            #expect(FileManager.default.fileExists(atPath: fixture.cache.diskCache.directory.appendingPathComponent(name).path))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: fixture.cache.diskCache.directory.path)
        #expect(files.filter { !$0.hasPrefix(".") }.count == 3)  // nothing was written anywhere else
        #expect(!FileManager.default.fileExists(atPath: fixture.root.url.appendingPathComponent("etc").path))
    }

    @Test func anImageClaimingTooManyPixelsFailsThroughTheManagerBeforeDecoding() async throws {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let png = try pngClaiming(width: 60000, height: 60000)
        let url = MockLoader.url("bomb.png")
        fixture.loader.state.withLock { $0.replies[url] = .image(Data(png), etag: nil) }
        do {
            _ = try await fixture.manager.loadImage(from: url)
            Issue.record("a 3.6-gigapixel image must not load")
        } catch {
            #expect(error.code == .loadFailed)
            #expect(error.downloadError?.code == .decodeFailed)
            #expect(error.downloadError?.codingError?.code == .imageTooLarge)
        }
    }
}
