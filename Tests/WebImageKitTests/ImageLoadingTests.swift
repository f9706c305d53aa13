import Foundation
import Testing
@testable import WebImageKit

extension ImageLoading {
    /// Loads with no options, validators or progress.
    func load(_ url: URL) async throws -> DownloadedData {
        try await loadData(for: url, options: [], validators: nil, progress: nil)
    }
}

/// The pixel size of the image in `data`.
private func pixelSize(_ data: Data) throws -> PixelSize {
    try ImageCodersManager.shared.decode(data, options: .init()).pixelSize
}

/// The `file:` and `data:` loaders and the loader registry (no sockets): they return bytes, never images.
@Suite struct ImageLoadingTests {
    static func png() throws -> Data {
        let pixels = PixelBuffer(width: 3, height: 2, fill: RGBA(red: 0, green: 0, blue: 255))
        return try ImageCodersManager.shared.encode(Image(pixels: pixels), as: .png, options: .init())
    }

    @Test func aBase64DataURLDecodes() async throws {
        let url = try #require(URL(string: "data:image/png;base64,\(try Self.png().base64EncodedString())"))
        let result = try await DataURLImageLoader().load(url)
        #expect(result.data == (try Self.png()))
        #expect(try pixelSize(result.data) == PixelSize(width: 3, height: 2))
        #expect(result.response.mimeType == "image/png")
    }

    @Test func percentEncodedPayloadsDecodeByteForByte() throws {
        let parsed = try DataURLImageLoader.parse("data:,%89PNG%0d%0A", maximumSize: 100)
        #expect(parsed.data == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]))
        #expect(parsed.mediaType == "text/plain")
    }

    @Test func malformedAndOversizedDataURLsFail() {
        #expect(throws: ImageDownloadError.self) { try DataURLImageLoader.parse("data:image/png;base64", maximumSize: 100) }
        #expect(throws: ImageDownloadError.self) { try DataURLImageLoader.parse("data:,%zz", maximumSize: 100) }
        #expect(throws: ImageDownloadError.self) {
            try DataURLImageLoader.parse("data:;base64," + String(repeating: "A", count: 400), maximumSize: 100)
        }
    }

    @Test func aFileURLLoadsAndAMissingFileIsNotFound() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ImageLoadingTests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.png")
        try Self.png().write(to: file)
        let result = try await FileImageLoader().load(file)
        #expect(result.data == (try Self.png()))
        do {
            _ = try await FileImageLoader().load(folder.appendingPathComponent("missing.png"))
            Issue.record("a missing file must fail")
        } catch let error as ImageDownloadError {
            #expect(error.code == .notFound)
            #expect(!error.isTransient)
        }
        do {
            _ = try await FileImageLoader(maximumFileSize: 10).load(file)
            Issue.record("an oversized file must fail")
        } catch let error as ImageDownloadError {
            #expect(error.code == .tooLarge)
        }
    }

    @Test func theRegistryRoutesBySchemeAndRejectsUnknownSchemes() async throws {
        let registry = ImageLoaderRegistry(loaders: [FileImageLoader(), DataURLImageLoader()])
        let dataURL = try #require(URL(string: "data:image/png;base64,\(try Self.png().base64EncodedString())"))
        #expect(registry.canLoad(dataURL))
        #expect(try pixelSize(await registry.load(dataURL).data).height == 2)
        let ftp = try #require(URL(string: "ftp://example.com/a.png"))
        #expect(!registry.canLoad(ftp))
        await #expect(throws: ImageDownloadError.self) { try await registry.load(ftp) }
    }
}
