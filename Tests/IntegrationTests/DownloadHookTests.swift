import Foundation
import Testing
import WebImageKit

/// The request and response hooks of ``ImageDownloader/Configuration`` (issue item 5; SPEC DL-14, DL-24, DL-54).
@Suite struct DownloadHookTests {
    @Test func theHeadersFilterShapesEachRequestsHeadersByURL() async throws {  // SPEC DL-14, DL-54
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.headersFilter = { url, headers in
                var headers = headers
                headers["X-Image-Name"] = url.lastPathComponent
                headers["Accept"] = nil
                return headers
            }
            try await withImageDownloader(configuration: configuration) { downloader in
                _ = try await downloader.image(for: base.appendingPathComponent("image/filtered.png"))
            }
            let headers = await server.log.headers
            #expect(headers["x-image-name"] == "filtered.png")
            #expect(headers["accept"] == nil)
            #expect(headers["user-agent"] == ImageDownloader.Configuration.defaultUserAgent)
        }
    }

    @Test func theRequestModifierCanChangeTheRequestOrCancelIt() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.requestModifier = { request in
                guard !request.url.path.hasSuffix("blocked.png") else { return nil }
                var request = request
                request.headers["X-Signed"] = "yes"
                return request
            }
            try await withImageDownloader(configuration: configuration) { downloader in
                _ = try await downloader.image(for: base.appendingPathComponent("image/signed.png"))
                await #expect(throws: ImageDownloadError.self) {
                    _ = try await downloader.image(for: base.appendingPathComponent("image/blocked.png"))
                }
                do {
                    _ = try await downloader.image(for: base.appendingPathComponent("image/blocked.png"))
                } catch let error as ImageDownloadError {
                    #expect(error.code == .cancelled)
                }
            }
            #expect(await server.log.headers(of: "/image/signed.png").first?["x-signed"] == "yes")
            #expect(await server.log.count("/image/blocked.png") == 0)
        }
    }

    @Test func theResponseModifierCanRejectAResponse() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            var configuration = ImageDownloader.Configuration()
            configuration.responseModifier = { response in
                response.url.path.hasSuffix("bad.png") ? nil : response
            }
            let error = try await ImageDownloaderTests.error(base.appendingPathComponent("image/bad.png"), configuration)
            #expect(error?.code == .rejected)
            #expect(error?.isTransient == false)
            #expect(try await ImageDownloaderTests.error(base.appendingPathComponent("image/good.png"), configuration) == nil)
        }
    }

    @Test func theDecryptorTurnsTheBodyIntoImageBytes() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            let url = base.appendingPathComponent("encrypted")
            #expect(try await ImageDownloaderTests.error(url)?.code == .badContentType)
            var configuration = ImageDownloader.Configuration()
            configuration.decryptor = { data, _ in Data(data.map { $0 ^ 0x5A }) }
            try await withImageDownloader(configuration: configuration) { downloader in
                let result = try await downloader.image(for: url)
                #expect(result.image.pixelSize == PixelSize(width: 16, height: 8))
                #expect(result.data == server.png)
            }
            struct Broken: Error {}
            configuration.decryptor = { _, _ in throw Broken() }
            #expect(try await ImageDownloaderTests.error(url, configuration)?.code == .decryptionFailed)
        }
    }
}
