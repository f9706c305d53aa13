import Foundation
import Testing
import WebImageKit

/// Downloading bytes without decoding them (`ImageDownloader.data(for:)`).
@Suite struct DownloadDataTests {
    @Test func bytesOnlyCallersShareTheRequestWithDecodingCallersAndGetTheOriginalBytes() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                let url = base.appendingPathComponent("held/bytes.png")
                async let raw = downloader.data(for: url)
                var events = server.events.makeAsyncIterator()
                while let event = await events.next(), event != .arrived("/held/bytes.png") {}
                // The bytes-only caller's request is on the wire and held: a decoding caller joins it.
                let (decoded, decodedSink) = AsyncStream.makeStream(of: Result<DownloadResult, ImageDownloadError>.self)
                downloader.download(url) { decodedSink.yield($0) }
                await server.gates.release("/held/bytes.png")
                let bytes = try await raw
                var decodedResults = decoded.makeAsyncIterator()
                let image = try #require(await decodedResults.next()).get()
                #expect(bytes.data == server.png)
                #expect(bytes.response.statusCode == 200)
                #expect(image.data == bytes.data)
                #expect(image.image.pixelSize == PixelSize(width: 16, height: 8))
                #expect(await server.log.count("/held/bytes.png") == 1)
            }
        }
    }

    @Test func bytesOnlyDownloadsStillCheckTheContentType() async throws {
        let server = try TestImageServer()
        try await server.run { base in
            try await withImageDownloader { downloader in
                do {
                    _ = try await downloader.data(for: base.appendingPathComponent("html"))
                    Issue.record("an HTML page is not an image")
                } catch let error as ImageDownloadError {
                    #expect(error.code == .badContentType)
                }
            }
        }
    }
}
