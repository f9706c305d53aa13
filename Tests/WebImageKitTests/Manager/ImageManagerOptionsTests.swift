import Foundation
import Testing
import WebImageKit
import WebImageTestSupport

/// Manager options that reach the loader or the decoder, and the default manager (SPEC MG-07, MG-08, MG-09,
/// MG-13, MG-30, MG-56).
@Suite struct ImageManagerOptionsTests {
    /// The download options the loader received for one load of `url` with `options`.
    static func downloadOptions(for options: ImageLoadOptions) async throws -> DownloadOptions? {
        let fixture = try ManagerFixture()
        defer { fixture.remove() }
        let url = MockLoader.url("options.png")
        fixture.loader.serve(url)
        _ = try await fixture.manager.loadImage(from: url, options: options)
        return fixture.loader.state.withLock { $0.options.last }
    }

    @Test func mg07HandleCookiesReachesTheLoader() async throws {
        #expect(try await Self.downloadOptions(for: [.handleCookies])?.contains(.handleCookies) == true)
        #expect(try await Self.downloadOptions(for: [])?.contains(.handleCookies) == false)
    }

    @Test func mg08AllowInvalidSSLCertificatesReachesTheLoader() async throws {
        let options = try await Self.downloadOptions(for: [.allowInvalidSSLCertificates])
        #expect(options?.contains(.allowInvalidSSLCertificates) == true)
        #expect(try await Self.downloadOptions(for: [])?.contains(.allowInvalidSSLCertificates) == false)
    }

    @Test func mg09HighPriorityReachesTheLoaderAsTheHighDownloadPriority() async throws {
        let options = try #require(try await Self.downloadOptions(for: [.highPriority]))
        #expect(options.contains(.highPriority))
        #expect(DownloadPriority(options) == .high)
        #expect(try await Self.downloadOptions(for: [])?.contains(.highPriority) == false)
    }

    /// A 16×12 image "over the budget": the coder puts 8×6 pixels' bytes in place of the 60 MB default.
    static func budgetFixture() throws -> (ManagerFixture, BudgetCoder, URL) {
        let coder = BudgetCoder(budget: 8 * 6 * 4)
        let fixture = try ManagerFixture(configuration: .init(coders: ImageCodersManager(coders: [coder])))
        let url = MockLoader.url("large.png")
        fixture.loader.serve(url, width: 16, height: 12)
        return (fixture, coder, url)
    }

    @Test func mg13ScaleDownLargeImagesDecodesWithinTheDefaultBudgetAndCachesTheSmallerImage() async throws {
        let (fixture, coder, url) = try Self.budgetFixture()
        defer { fixture.remove() }
        let scaled = try await fixture.manager.loadImage(from: url, options: [.scaleDownLargeImages, .waitStoreCache])
        #expect(scaled.image.pixelSize == PixelSize(width: 8, height: 6))
        #expect(coder.requestedBudgets == [ImageDecodingOptions.defaultScaleDownLimitBytes])
        #expect(fixture.cache.imageFromMemory(forKey: url.absoluteString)?.pixelSize == PixelSize(width: 8, height: 6))

        let other = MockLoader.url("large-unscaled.png")
        fixture.loader.serve(other, width: 16, height: 12)
        let full = try await fixture.manager.loadImage(from: other)
        #expect(full.image.pixelSize == PixelSize(width: 16, height: 12))
        #expect(coder.requestedBudgets.last == .some(nil))
    }

    @Test func mg56TheScaleDownHappensAfterTheDownloadAndBeforeTheTransform() async throws {
        let (fixture, _, url) = try Self.budgetFixture()
        defer { fixture.remove() }
        let transformer = CountingTransformer()
        var context = ImageLoadContext()
        context.transformer = transformer
        let result = try await fixture.manager.loadImage(
            from: url, options: [.scaleDownLargeImages, .waitStoreCache], context: context)
        // The transformer keeps the size it is given: it got the scaled-down image, once.
        #expect(result.image.pixelSize == PixelSize(width: 8, height: 6))
        #expect(transformer.count == 1)
        let stored = fixture.cache.imageFromMemory(forKey: fixture.manager.cacheKey(for: url) + "-counting")
        #expect(stored?.pixelSize == PixelSize(width: 8, height: 6))
    }

    @Test func mg30ADefaultManagerUsesTheSharedCacheAndTheSharedDownloader() throws {
        let manager = ImageManager()
        #expect(manager.cache as? ImageCache === ImageCache.shared)
        let registry = try #require(manager.loader as? ImageLoaderRegistry)
        #expect(registry.loaders.contains { $0 as? ImageDownloader === ImageDownloader.shared })
        #expect(registry.canLoad(try #require(URL(string: "https://example.com/a.png"))))
    }
}
