import Foundation
import Testing
import WebImageKit
import WebImageTools

/// `webimage info` reads bit depth, colour profile names and EXIF camera and date from headers, and gives
/// the same summary with `--decode`.
@Suite struct InfoHeadersTests {
    typealias CLI = CommandLineToolTests

    @Test func inflateReadsFixedAndDynamicHuffmanBlocksAndRefusesDamage() throws {
        let fixed = try #require(Data(hex: "78dacb48cdc9c957c84090003a2e067d"))
        #expect(Inflate.zlib([UInt8](fixed)).map { String(decoding: $0, as: UTF8.self) } == "hello hello hello")
        let dynamic = try #require(Data(hex: """
            78daddcdc109c3300c46e155fe09bc840fc1144a0e819cd544ae4d2229b832a5dbc773f4fef8decaaf24f4e6477534a6fd032f0c25\
            61580629528cb89ae57a32723301617e4ea831ced84ad703dfeac5ba8ff887cd4eeb0d423a4c61f580f50f0ecbf058f770032b316928
            """))
        let sentence = "WebImageKit reads the name of an ICC profile from a PNG iCCP chunk without any colour management. "
        #expect(Inflate.zlib([UInt8](dynamic)).map { String(decoding: $0, as: UTF8.self) } == String(repeating: sentence, count: 3) + "The end.")
        #expect(Inflate.zlib(Array([UInt8](dynamic).prefix(60))) == nil)
        #expect(Inflate.zlib([0x78, 0xDA, 0xFF, 0xFF, 0xFF]) == nil)
    }

    @Test func jpegProfileNameCameraAndDateComeFromItsSegments() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 40, height: 30)), as: .jpeg, options: ImageEncodingOptions())
        let file = folder.appendingPathComponent("camera.jpg")
        try MetadataFixtures.jpeg(plain, inserting: [
            MetadataFixtures.segment(0xE1, Array("Exif\0\0".utf8) + MetadataFixtures.exif),
            MetadataFixtures.segment(0xE2, Array("ICC_PROFILE\0".utf8) + [1, 1] + MetadataFixtures.profile(named: "Test RGB v2")),
        ]).write(to: file)
        let summaries = try await Self.summaries(of: file)
        for summary in summaries {
            #expect(summary.bitDepth == 8 && summary.colourProfile == "Test RGB v2")
            #expect(summary.camera == "Canon EOS R5" && summary.taken == "2024:05:01 14:03:22")
        }
        let line = try await CLI.run(["info", file.path])
        #expect(line.stdout.contains("8-bit, profile Test RGB v2, camera Canon EOS R5, taken 2024:05:01 14:03:22"), "\(line.stdout)")
    }

    @Test func pngProfileIsInflatedForItsNameAndSRGBChunkSaysSRGB() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try ImageCodersManager.shared.encode(Image(pixels: .samplePattern(width: 20, height: 10)), as: .png, options: ImageEncodingOptions())
        let profiled = folder.appendingPathComponent("profiled.png"), srgb = folder.appendingPathComponent("srgb.png")
        let iccp = Array("Keyword\0".utf8) + [0] + MetadataFixtures.zlibStored(MetadataFixtures.profile(named: "Display P3 v4", v4: true))
        try MetadataFixtures.png(plain, inserting: MetadataFixtures.chunk("iCCP", iccp)).write(to: profiled)
        try MetadataFixtures.png(plain, inserting: MetadataFixtures.chunk("sRGB", [0])).write(to: srgb)
        #expect(try await Self.summaries(of: profiled).map(\.colourProfile) == ["Display P3 v4", "Display P3 v4"])
        #expect(try await Self.summaries(of: srgb).map(\.colourProfile) == ["sRGB", "sRGB"])
    }

    @Test func stillWebPAndAVIFAreReadFromHeadersWithTheirBitDepth() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try ImageFiles.writeSamples(to: folder, photoSize: CLI.sampleSize, names: ["photo.webp", "alpha-lossless.webp", "photo.avif"])
        for sample in samples {
            // A pixel limit of 100 would stop any decode: the headers alone were read.
            let headers = try ImageHeaders.summarize(
                Data(contentsOf: sample), source: sample.lastPathComponent, options: ImageDecodingOptions(maximumPixelCount: 100))
            let decoded = try ImageHeaders.decoded(Data(contentsOf: sample), source: sample.lastPathComponent)
            #expect(headers.size == decoded.size && headers.hasAlpha == decoded.hasAlpha, "\(sample.lastPathComponent)")
            #expect(headers.bitDepth == 8)
        }
    }

    /// The summaries `info --json` and `info --json --decode` give for `file`.
    @Test func tiffProfileNameAndBitDepthComeFromItsFirstDirectory() async throws {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil)).appendingPathComponent("info")
        let cmyk = try await Self.summaries(of: folder.appendingPathComponent("cmyk-profile.tif"))
        #expect(cmyk.map(\.colourProfile) == ["Artifex PS CMYK Profile", "Artifex PS CMYK Profile"])
        #expect(cmyk.map(\.bitDepth) == [8, 8])
        let deep = try await Self.summaries(of: folder.appendingPathComponent("rgb16.tif"))
        #expect(deep.map(\.bitDepth) == [16, 16])
        #expect(deep.allSatisfy { $0.format == .tiff && $0.width == 40 && $0.height == 30 })
        let icon = try await Self.summaries(of: folder.appendingPathComponent("multi.ico"))
        #expect(icon.allSatisfy { $0.format == .ico && $0.width == 256 && $0.hasAlpha })
    }

    static func summaries(of file: URL) async throws -> [ImageSummary] {
        var summaries: [ImageSummary] = []
        for extra in [[], ["--decode"]] {
            let run = try await CLI.run(["info", "--json"] + extra + [file.path])
            #expect(run.status == 0, "\(run.stderr)")
            summaries += try JSONDecoder().decode([ImageSummary].self, from: Data(run.stdout.utf8))
        }
        return summaries
    }
}
