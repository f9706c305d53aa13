import Foundation
import Testing
import WebImageKit
import WebImageTools

@Suite struct ImageFilesTests {
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func samplesCoverEveryBuiltInFormatAndDecode() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let urls = try ImageFiles.writeSamples(to: folder)
        let formats = try urls.map { try ImageCodersManager.shared.decode(Data(contentsOf: $0)).format }
        #expect(Set(formats) == [.jpeg, .png, .gif, .webp, .avif])
        let animated = try urls.filter { try ImageCodersManager.shared.decode(Data(contentsOf: $0)).isAnimated }
        #expect(animated.map(\.lastPathComponent).sorted() == ["animation.gif", "animation.webp"])
    }

    @Test func summaryDescribesTheDecodedImage() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let urls = try ImageFiles.writeSamples(to: folder)
        let gif = try ImageFiles.summarize(fileAt: try #require(urls.first { $0.pathExtension == "gif" }))
        #expect(gif.format == .gif && gif.mimeType == "image/gif")
        #expect(gif.frames == 6 && gif.durationMilliseconds == 720 && gif.loopCount == 0)
        #expect(gif.line.hasSuffix("loops forever), alpha, orientation up, \(ByteCountText.format(gif.bytes))"))
    }

    @Test func convertFailsWithoutWritingWhenTheInputIsCorrupt() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xDB, 0, 0]).write(to: input)
        let output = folder.appendingPathComponent("out.png")
        let outcome = BatchConversion.convert(
            ConversionJob(input: input.path, output: output.path, format: .png), settings: ConversionSettings())
        guard case .failure(let error) = outcome.result else {
            Issue.record("a corrupt JPEG converted")
            return
        }
        #expect(error.description.hasPrefix("\(input.path): ") && error.description.contains("JPEG"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func byteCountsUseDecimalUnits() {
        #expect(ByteCountText.format(0) == "0 B")
        #expect(ByteCountText.format(999) == "999 B")
        #expect(ByteCountText.format(34_200) == "34.2 KB")
        #expect(ByteCountText.format(1_500_000) == "1.5 MB")
    }
}
