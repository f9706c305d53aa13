import Foundation
import Testing
import WebImageKit

/// Conditional requests with stored validators through `data(for:validators:)` (SPEC DL-03, DL-04, K-09).
@Suite struct RevalidationTests {
    @Test func aStoredETagOrDateRevalidatesAsNotModifiedWithoutAnImage() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = base.appendingPathComponent("etag")
                let first = try await downloader.image(for: url)
                #expect(first.response.validators == Validators(etag: "\"v1\"", lastModified: "Sun, 01 Nov 2026 10:00:00 GMT"))

                let byTag = try await downloader.data(for: url, validators: Validators(etag: first.response.validators.etag))
                #expect(byTag.isNotModified)
                #expect(byTag.response.statusCode == 304)
                #expect(byTag.data.isEmpty)

                let byDate = try await downloader.data(for: url, validators: Validators(lastModified: first.response.validators.lastModified))
                #expect(byDate.isNotModified)
            }
        }
    }

    @Test func aChangedResourceRevalidatesAsModifiedWithTheNewImage() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let result = try await downloader.data(for: base.appendingPathComponent("etag"), validators: Validators(etag: "\"v0\""))
                #expect(!result.isNotModified)
                #expect(try ImageCodersManager.shared.decode(result.data, options: .init()).pixelSize == PixelSize(width: 16, height: 8))
                #expect(result.response.validators.etag == "\"v1\"")
            }
        }
    }

    @Test func a304ToARequestWithoutValidatorsIsABadStatus() async throws {  // SPEC K-09
        let server = try TestImageServer()
        try await server.run { base in
            let error = try await ImageDownloaderTests.error(base.appendingPathComponent("status/304"))
            #expect(error?.code == .badStatus(304))
        }
    }
}
